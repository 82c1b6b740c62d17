package io.cpbench.topology;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The AWS lab's user data as Terraform renders it for the instances (main.tf's own {@code templatefile} calls, through
 * {@code terraform console}), for tests elsewhere that run it on hosts standing in for the instances.
 */
public final class LabUserData {

    private LabUserData() {
    }

    /**
     * Each member's script of a lab of {@code count} members, with {@code labPublicKey} as the lab key Terraform
     * makes; with fewer than 5 members (variables.tf's slow member is 4) none is the slow one.
     */
    public static List<String> members(Path workDir, int count, String labPublicKey) throws Exception {
        variablesIn(workDir);
        String call = LabTerraformRenderTest.templateCall("member-init.sh.tftpl")
                .replace("\"" + LabTerraformRenderTest.LAB_PUBLIC_KEY + "\"", "\"" + labPublicKey.strip() + "\"");
        List<String> expressions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            expressions.add(call.replace("count.index", Integer.toString(i)));
        }
        return Terraform.get().evaluateStrings(workDir, expressions, variables(count));
    }

    /** The client's script. */
    public static String client(Path workDir, int members) throws Exception {
        variablesIn(workDir);
        return Terraform.get().evaluateStrings(workDir,
                List.of(LabTerraformRenderTest.templateCall("client-init.sh.tftpl")), variables(members)).get(0);
    }

    /** variables.tf alone: the console then knows var.* and their defaults, and needs no provider. */
    private static void variablesIn(Path workDir) throws java.io.IOException {
        if (!Files.exists(workDir.resolve("variables.tf"))) {
            Files.copy(LabTerraformRenderTest.TF.resolve("variables.tf"), workDir.resolve("variables.tf"));
        }
    }

    private static String[] variables(int members) {
        List<String> args = new ArrayList<>(List.of(LabTerraformRenderTest.REQUIRED_VARIABLES));
        args.addAll(List.of("-var", "member_count=" + members));
        return args.toArray(String[]::new);
    }
}
