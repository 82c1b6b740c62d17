package io.cpbench.topology;

import java.nio.file.Files;
import java.nio.file.Path;

/** The lab's {@code cpbench-fault} script as Terraform renders it into a member's user data. */
final class LabFaultScript {

    private LabFaultScript() {
    }

    static String extract(String userData) {
        int from = userData.indexOf("<<'FAULT'\n");
        int to = userData.indexOf("\nFAULT\n", from);
        if (from < 0 || to < 0) {
            throw new AssertionError("no cpbench-fault heredoc in the member's user data");
        }
        return userData.substring(from + "<<'FAULT'\n".length(), to + 1);
    }

    static String rendered() throws Exception {
        Path template = LabTerraformTest.TF.resolve("templates/member-init.sh.tftpl");
        return extract(LabTerraformTest.render(Files.readString(template), false));
    }
}
