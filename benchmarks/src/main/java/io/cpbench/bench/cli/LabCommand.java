package io.cpbench.bench.cli;

import io.cpbench.topology.Inventory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "Helpers for the AWS lab (infra/terraform, infra/lab/cpbench-lab).",
        subcommands = {LabCommand.MemberCommands.class, LabCommand.Hosts.class, LabCommand.InventoryOnly.class,
                LabCommand.Key.class},
        footer = {"", "Example:", "  cpbench lab hosts --outputs outputs.json"})
final class LabCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(name = "member-commands", mixinStandardHelpOptions = true,
            description = {"Writes each member host's command line, one argument per line, to DIR/member-N.argv: the "
                    + "command the local topology runs for a member (same JVM flags, heap, GC log, member settings), "
                    + "with the inventory's hosts, ports and priority member.",
                    "The lab's systemd unit runs it with infra/terraform/files/run-member.sh."},
            footer = {"", "Example:", "  cpbench lab member-commands --inventory inventory.json --out argv"})
    static final class MemberCommands implements Callable<Integer> {

        @Option(names = "--inventory", paramLabel = "FILE", required = true,
                description = "The lab's inventory (terraform output -json, or cp-bench's inventory JSON).")
        Path inventory;

        @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where to write member-N.argv.")
        Path out;

        @Option(names = "--java", paramLabel = "PATH", defaultValue = "/usr/bin/java",
                description = "The java executable on the member hosts (default: ${DEFAULT-VALUE}).")
        String java;

        @Option(names = "--jar", paramLabel = "PATH", defaultValue = "/opt/cpbench/cpbench.jar",
                description = "cp-bench's jar on the member hosts (default: ${DEFAULT-VALUE}).")
        String jar;

        @Option(names = "--log-dir", paramLabel = "DIR", defaultValue = "/opt/cpbench/logs",
                description = "Where members write GC logs on their hosts (default: ${DEFAULT-VALUE}).")
        String logDir;

        @Override
        public Integer call() {
            Inventory lab = Inventory.read(inventory);
            List<List<String>> commands = lab.memberCommands(java, jar, logDir);
            try {
                Files.createDirectories(out);
                for (int i = 0; i < commands.size(); i++) {
                    Path file = out.resolve("member-" + i + ".argv");
                    Files.writeString(file, String.join("\n", commands.get(i)) + "\n", StandardCharsets.UTF_8);
                    Inventory.Member m = lab.members().get(i);
                    System.out.println("member-" + i + " " + m.address() + (m.priority() ? " priority" : "")
                            + (m.slow() ? " slow" : "") + " -> " + file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write member commands to " + out + ": " + e.getMessage(), e);
            }
            return 0;
        }
    }

    @Command(name = "hosts", mixinStandardHelpOptions = true,
            description = "Prints the lab's hosts from 'terraform output -json', for the lab loop: 'user U', 'client IP', "
                    + "'member N IP' (public addresses), and 'agent N PUBLIC PRIVATE' for each client host (load agents).",
            footer = {"", "Example:", "  (cd infra/terraform && terraform output -json) > outputs.json && cpbench lab hosts --outputs outputs.json"})
    static final class Hosts implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        private OutputsFile outputsFile;

        @Override
        public Integer call() {
            com.fasterxml.jackson.databind.JsonNode root = readOutputs(outputsFile.path);
            // Each value goes into ssh's arguments and the lab's shell commands: checked as the inventory's are.
            String user = value(root, "ssh_user").asText();
            Inventory.checkUser("--outputs " + outputsFile.path + ": ssh_user", user);
            String client = host(value(root, "client_public_ip").asText(), "client_public_ip");
            com.fasterxml.jackson.databind.JsonNode members = value(root, "member_public_ips");
            if (!members.isArray() || members.isEmpty()) {
                throw new IllegalArgumentException("--outputs " + outputsFile.path + ": member_public_ips is not a list of addresses");
            }
            for (int i = 0; i < members.size(); i++) {
                host(members.get(i).asText(), "member_public_ips[" + i + "]");
            }
            System.out.println("user " + user);
            System.out.println("client " + client);
            for (int i = 0; i < members.size(); i++) {
                System.out.println("member " + i + " " + members.get(i).asText());
            }
            // Labs applied before client_count have neither list, so no agent lines ('cpbench-lab load' says to apply again).
            com.fasterxml.jackson.databind.JsonNode publics = root.path("client_public_ips").path("value");
            com.fasterxml.jackson.databind.JsonNode privates = root.path("client_private_ips").path("value");
            if (publics.isArray() && privates.isArray() && publics.size() == privates.size()) {
                for (int i = 0; i < publics.size(); i++) {
                    host(publics.get(i).asText(), "client_public_ips[" + i + "]");
                    host(privates.get(i).asText(), "client_private_ips[" + i + "]");
                }
                for (int i = 0; i < publics.size(); i++) {
                    System.out.println("agent " + i + " " + publics.get(i).asText() + " " + privates.get(i).asText());
                }
            }
            return 0;
        }

        private String host(String host, String output) {
            Inventory.checkHost("--outputs " + outputsFile.path + ": " + output, host);
            return host;
        }

        private com.fasterxml.jackson.databind.JsonNode value(com.fasterxml.jackson.databind.JsonNode root, String output) {
            return outputValue(root, output, outputsFile.path);
        }
    }

    /** The {@code --outputs FILE} option the lab's subcommands share. */
    static final class OutputsFile {
        @Option(names = "--outputs", paramLabel = "FILE", required = true, description = "terraform output -json, saved to a file.")
        Path path;
    }

    /** {@code terraform output -json}, saved to a file. */
    static com.fasterxml.jackson.databind.JsonNode readOutputs(Path outputs) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(outputs.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("--outputs " + outputs + ": not terraform's JSON output (" + e.getMessage()
                    .lines().findFirst().orElse("") + ")");
        }
    }

    /** An output's value from {@code terraform output -json}; a clear error when it is missing or blank. */
    static com.fasterxml.jackson.databind.JsonNode outputValue(com.fasterxml.jackson.databind.JsonNode root, String output,
                                                               Path outputs) {
        com.fasterxml.jackson.databind.JsonNode value = root == null ? null : root.path(output).get("value");
        if (value == null || value.isNull() || (value.isTextual() && value.asText().isBlank())) {
            throw new IllegalArgumentException("--outputs " + outputs + ": no output '" + output
                    + "'; run 'terraform apply' in infra/terraform and save 'terraform output -json'");
        }
        return value;
    }

    @Command(name = "inventory", mixinStandardHelpOptions = true,
            description = "Prints the inventory from 'terraform output -json' (checked as --topology remote checks it), and "
                    + "nothing else of the outputs: what the lab loop copies to the client (the outputs hold the lab's key).",
            footer = {"", "Example:", "  cpbench lab inventory --outputs outputs.json > inventory.json"})
    static final class InventoryOnly implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        private OutputsFile outputsFile;

        @Override
        public Integer call() throws IOException {
            Inventory.read(outputsFile.path); // every check, with the file named in its error
            com.fasterxml.jackson.databind.JsonNode inventory = outputValue(readOutputs(outputsFile.path), "inventory", outputsFile.path);
            System.out.println(new com.fasterxml.jackson.databind.ObjectMapper().writerWithDefaultPrettyPrinter()
                    .writeValueAsString(inventory));
            return 0;
        }
    }

    @Command(name = "key", mixinStandardHelpOptions = true,
            description = "Prints the lab's private key (the output lab_private_key) on standard output, for piping into "
                    + "ssh: the lab loop copies it to the client this way, not in user data and never on a command line.",
            footer = {"", "Example:", "  cpbench lab key --outputs outputs.json | ssh admin@CLIENT 'umask 077 && cat > ~/.ssh/cpbench-lab'"})
    static final class Key implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        private OutputsFile outputsFile;

        @Override
        public Integer call() {
            com.fasterxml.jackson.databind.JsonNode root = readOutputs(outputsFile.path);
            String key = outputValue(root, "lab_private_key", outputsFile.path).asText();
            if (!key.startsWith("-----BEGIN OPENSSH PRIVATE KEY-----")) {
                throw new IllegalArgumentException("--outputs " + outputsFile.path + ": lab_private_key is not an OpenSSH private key");
            }
            System.out.print(key.endsWith("\n") ? key : key + "\n");
            return 0;
        }
    }
}
