package io.cpbench.topology;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AWS lab's files as Terraform itself reads them, offline: every .tf file is formatted as {@code terraform fmt}
 * would, and the instances' user data is rendered by Terraform's own {@code templatefile}, called with the arguments
 * that main.tf passes (its text, with the variables' defaults from variables.tf), for each member and the client.
 * What needs the AWS provider ({@code validate}, {@code plan}, {@code apply}) cannot run here: no provider can be
 * downloaded.
 */
@NeedsTerraform
class LabTerraformRenderTest {

    static final Path TF = LabTerraformTest.TF.toAbsolutePath().normalize();
    static final String LAB_PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITestOnlyKey cpbench-lab";

    /** The variables without a default, given as a user's terraform.tfvars would. */
    static final String[] REQUIRED_VARIABLES = {"-var", "key_name=lab-key", "-var", "ssh_cidr=203.0.113.7/32"};

    static Path workDir;

    @BeforeAll
    static void variablesOnly(@TempDir Path dir) throws IOException {
        // variables.tf alone: the console then knows var.* and their defaults, and needs no provider
        workDir = dir;
        Files.copy(TF.resolve("variables.tf"), dir.resolve("variables.tf"));
    }

    @Test
    void everyTerraformFileIsFormattedAsTerraformFmtWouldWriteIt() throws Exception {
        Terraform.Result fmt = Terraform.get().run(TF, "", "fmt", "-check", "-recursive", "-diff", "-no-color");
        assertThat(fmt.exitCode()).as("terraform fmt -check -recursive infra/terraform:%n%s%s", fmt.stdout(),
                fmt.stderr()).isZero();
    }

    @Test
    void eachMembersUserDataIsRenderedByTerraformAsMainTfCallsIt() throws Exception {
        String call = templateCall("member-init.sh.tftpl");
        List<String> expressions = new ArrayList<>();
        int members = 5; // variables.tf: member_count's default; slow_member 4
        for (int i = 0; i < members; i++) {
            expressions.add(call.replace("count.index", Integer.toString(i)));
        }
        List<String> rendered = Terraform.get().evaluateStrings(workDir, expressions, REQUIRED_VARIABLES);
        for (int i = 0; i < members; i++) {
            String script = rendered.get(i);
            assertThat(script).as("member %d", i)
                    .startsWith("#!/bin/bash\n")
                    .contains("cp-bench lab member (member-" + i + ")")
                    .contains("echo '" + LAB_PUBLIC_KEY + "' >> /home/admin/.ssh/authorized_keys")
                    .contains("admin ALL=(root) NOPASSWD: /usr/local/bin/cpbench-fault")
                    .contains(Files.readString(TF.resolve("files/run-member.sh")))
                    .doesNotContain("%{", "$${");
            boolean slow = i == 4;
            assertThat(script.contains("/usr/local/bin/cpbench-netem <<'NETEM'")).as("member %d is slow", i)
                    .isEqualTo(slow);
            if (slow) {
                assertThat(script).contains("(default 10ms)", "\"${2:-10ms}\"",
                        "admin ALL=(root) NOPASSWD: /usr/local/bin/cpbench-netem");
            }
            assertThat(LabFaultScript.extract(script)).startsWith("#!/bin/bash").contains("iptables -N CPBENCH-IN",
                    "\"${1:?cpbench-fault: slow needs DELAY}\"");
            assertParsesAsBash(script, "member " + i);
        }
    }

    @Test
    void theClientsUserDataIsRenderedByTerraformAsMainTfCallsIt() throws Exception {
        String script = Terraform.get().evaluateStrings(workDir, List.of(templateCall("client-init.sh.tftpl")),
                REQUIRED_VARIABLES).get(0);
        assertThat(script).startsWith("#!/bin/bash\n")
                .contains("install -d -m 700 -o admin -g admin /home/admin/.ssh", "touch /opt/cpbench/provisioned")
                .doesNotContain("${", "%{");
        assertParsesAsBash(script, "the client");
    }

    /**
     * The tests' own rendering of the member template ({@link LabTerraformTest#render}, which the fault tests run the
     * script from) is Terraform's, given the same values.
     */
    @Test
    void theTestsOwnRenderingOfTheMemberTemplateIsTerraforms() throws Exception {
        String template = Files.readString(TF.resolve("templates/member-init.sh.tftpl"));
        List<String> expressions = new ArrayList<>();
        for (boolean slow : new boolean[]{true, false}) {
            expressions.add("templatefile(\"" + TF.resolve("templates/member-init.sh.tftpl") + "\", {"
                    + "ssh_user = \"admin\", member_name = \"member-4\", lab_public_key = \"ssh-ed25519 AAAA lab\", "
                    + "run_member = \"#!/usr/bin/env bash\", slow = " + slow + ", delay_ms = 10})");
        }
        List<String> terraforms = Terraform.get().evaluateStrings(workDir, expressions, REQUIRED_VARIABLES);
        assertThat(LabTerraformTest.render(template, true)).isEqualTo(terraforms.get(0));
        assertThat(LabTerraformTest.render(template, false)).isEqualTo(terraforms.get(1));
    }

    /**
     * main.tf's own {@code templatefile(...)} call for a template, on one line: {@code ${path.module}} made absolute,
     * the lab key (made by the tls provider at apply time) a fixed public key; {@code var.*} and {@code count.index}
     * left for the caller and the console.
     */
    static String templateCall(String template) throws IOException {
        String main = Files.readString(TF.resolve("main.tf"));
        Matcher m = Pattern.compile("templatefile\\(\"\\$\\{path\\.module}/templates/" + Pattern.quote(template)
                + "\", \\{(.*?)\\n\\s*}\\)", Pattern.DOTALL).matcher(main);
        assertThat(m.find()).as("main.tf calls templatefile on templates/%s", template).isTrue();
        String arguments = m.group(1).strip().replaceAll("\\s*\\n\\s*", ", ");
        String call = "templatefile(\"" + TF.resolve("templates/" + template) + "\", {" + arguments + "})";
        return call.replace("${path.module}", TF.toString())
                .replace("tls_private_key.lab.public_key_openssh", "\"" + LAB_PUBLIC_KEY + "\"");
    }

    static void assertParsesAsBash(String script, String what) throws Exception {
        Path file = Files.createTempFile(workDir, "user-data", ".sh");
        Files.writeString(file, script);
        Process bash = new ProcessBuilder("bash", "-n", file.toString()).redirectErrorStream(true).start();
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).as("bash -n ends").isTrue();
        assertThat(bash.exitValue()).as("bash -n on %s's user data: %s", what,
                new String(bash.getInputStream().readAllBytes())).isZero();
    }
}
