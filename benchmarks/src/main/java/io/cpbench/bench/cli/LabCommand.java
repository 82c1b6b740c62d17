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
                LabCommand.Key.class, LabCommand.KnownHosts.class},
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

        @Option(names = "--jar", paramLabel = "PATH", defaultValue = "/opt/cpbench/lib/cpbench.jar",
                description = "cp-bench's jar on the member hosts, where cpbench-lab unpacks the distribution "
                        + "(default: ${DEFAULT-VALUE}).")
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
            description = "Prints the lab's hosts from 'terraform output -json', for the lab loop: 'user U', 'region R', "
                    + "'client IP' (public), 'member N IP' (private: the loop reaches members through the client), "
                    + "'agent N PUBLIC PRIVATE' for each client host (load agents), and 'instance ID' for each instance "
                    + "(whose console output pins its host keys).",
            footer = {"", "Example:", "  (cd infra/terraform && terraform output -json) > outputs.json && cpbench lab hosts --outputs outputs.json"})
    static final class Hosts implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        private OutputsFile outputsFile;

        @Override
        public Integer call() {
            LabHosts lab = LabHosts.of(outputsFile.path);
            System.out.println("user " + lab.user());
            System.out.println("region " + lab.region());
            System.out.println("client " + lab.clientPublic().get(0));
            for (int i = 0; i < lab.memberPrivate().size(); i++) {
                System.out.println("member " + i + " " + lab.memberPrivate().get(i));
            }
            for (int i = 0; i < lab.clientPublic().size(); i++) {
                System.out.println("agent " + i + " " + lab.clientPublic().get(i) + " " + lab.clientPrivate().get(i));
            }
            lab.memberInstances().forEach(id -> System.out.println("instance " + id));
            lab.clientInstances().forEach(id -> System.out.println("instance " + id));
            return 0;
        }
    }

    /**
     * The lab's hosts as 'terraform output -json' gives them, each value checked before it reaches ssh's arguments or
     * the lab's shell commands (as the inventory's are).
     */
    record LabHosts(String user, String region, List<String> memberPrivate, List<String> memberInstances,
                    List<String> clientPublic, List<String> clientPrivate, List<String> clientInstances) {

        static LabHosts of(Path outputs) {
            com.fasterxml.jackson.databind.JsonNode root = readOutputs(outputs);
            String user = outputValue(root, "ssh_user", outputs).asText();
            Inventory.checkUser("--outputs " + outputs + ": ssh_user", user);
            String region = outputValue(root, "region", outputs).asText();
            if (!region.matches("[a-z]{2}(-[a-z]+)+-[0-9]")) {
                throw new IllegalArgumentException("--outputs " + outputs + ": region '" + region.replaceAll("\\p{Cntrl}", "?")
                        + "' is not an AWS region");
            }
            List<String> memberPrivate = list(root, "member_private_ips", outputs, Inventory::checkHost);
            List<String> memberInstances = list(root, "member_instance_ids", outputs, io.cpbench.topology.HostKeys::checkInstanceId);
            List<String> clientPublic = list(root, "client_public_ips", outputs, Inventory::checkHost);
            List<String> clientPrivate = list(root, "client_private_ips", outputs, Inventory::checkHost);
            List<String> clientInstances = list(root, "client_instance_ids", outputs, io.cpbench.topology.HostKeys::checkInstanceId);
            if (memberInstances.size() != memberPrivate.size() || clientPrivate.size() != clientPublic.size()
                    || clientInstances.size() != clientPublic.size()) {
                throw new IllegalArgumentException("--outputs " + outputs + ": the lists of members' or clients' addresses and"
                        + " instance IDs differ in length; save 'terraform output -json' again after 'terraform apply'");
            }
            return new LabHosts(user, region, memberPrivate, memberInstances, clientPublic, clientPrivate, clientInstances);
        }

        private static List<String> list(com.fasterxml.jackson.databind.JsonNode root, String output, Path outputs,
                                         java.util.function.BiConsumer<String, String> check) {
            com.fasterxml.jackson.databind.JsonNode value = outputValue(root, output, outputs);
            if (!value.isArray() || value.isEmpty()) {
                throw new IllegalArgumentException("--outputs " + outputs + ": " + output + " is not a list; run 'terraform"
                        + " apply' in infra/terraform again and save 'terraform output -json'");
            }
            List<String> values = new java.util.ArrayList<>();
            for (int i = 0; i < value.size(); i++) {
                check.accept("--outputs " + outputs + ": " + output + "[" + i + "]", value.get(i).asText());
                values.add(value.get(i).asText());
            }
            return List.copyOf(values);
        }
    }

    @Command(name = "known-hosts", mixinStandardHelpOptions = true,
            description = {"Prints known_hosts lines that pin every lab host's SSH keys, read from each instance's console "
                    + "output (cloud-init prints the host keys there at the end of the first boot; the lab loop saves "
                    + "'aws ec2 get-console-output --latest' of each instance as DIR/<instance-id>.txt).",
                    "A client is listed under its public and private address, a member under its private one. An "
                    + "instance whose console has no keys yet is an error naming it (exit 2): wait and try again."},
            footer = {"", "Example:", "  cpbench lab known-hosts --outputs outputs.json --console-dir consoles > known_hosts"})
    static final class KnownHosts implements Callable<Integer> {

        @picocli.CommandLine.Mixin
        private OutputsFile outputsFile;

        @Option(names = "--console-dir", paramLabel = "DIR", required = true,
                description = "Where each instance's console output is, as <instance-id>.txt.")
        Path consoles;

        @Override
        public Integer call() {
            LabHosts lab = LabHosts.of(outputsFile.path);
            List<String> lines = new java.util.ArrayList<>();
            for (int i = 0; i < lab.clientInstances().size(); i++) {
                lines.addAll(pinned("client-" + i, lab.clientInstances().get(i),
                        List.of(lab.clientPublic().get(i), lab.clientPrivate().get(i))));
            }
            for (int i = 0; i < lab.memberInstances().size(); i++) {
                lines.addAll(pinned("member-" + i, lab.memberInstances().get(i), List.of(lab.memberPrivate().get(i))));
            }
            lines.forEach(System.out::println);
            return 0;
        }

        private List<String> pinned(String name, String instance, List<String> addresses) {
            String host = name + " (" + instance + ", " + String.join(", ", addresses) + ")";
            Path file = consoles.resolve(instance + ".txt");
            String console;
            try {
                console = Files.readString(file, StandardCharsets.ISO_8859_1); // bytes as they are: the keys are ASCII
            } catch (IOException e) {
                throw new IllegalArgumentException(host + ": no console output at " + file + " ("
                        + io.cpbench.topology.IoCause.of(e) + ")");
            }
            return io.cpbench.topology.HostKeys.knownHostsLines(addresses, io.cpbench.topology.HostKeys.fromConsole(host, console));
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
