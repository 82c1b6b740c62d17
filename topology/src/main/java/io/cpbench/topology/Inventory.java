package io.cpbench.topology;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The members of a cluster cp-bench did not start, and how to reach them: what the {@code remote} topology attaches
 * to, and what {@code cpbench lab member-commands} turns into each member host's command. The AWS lab's Terraform
 * writes it as its {@code inventory} output.
 *
 * <h2>File format ({@value #FORMAT})</h2>
 * A JSON object, or Terraform's {@code output -json} holding one as {@code inventory.value}:
 * <pre>{
 *   "format": "cpbench-inventory/1",
 *   "clusterName": "cpbench-lab",
 *   "rebalancePeriodSeconds": 5,                       (optional, default 5)
 *   "memberJvmOptions": ["-Xms256m", "-Xmx1g"],        (optional, the local topology's default)
 *   "members": [ {"host": "10.42.1.11", "port": 5701, "priority": true, "slow": false, "sshHost": "10.42.1.11"}, ... ],
 *   "ssh": {"user": "admin", "identityFile": "/home/admin/.ssh/cpbench-lab",
 *           "netemCommand": "sudo /usr/local/bin/cpbench-netem",
 *           "faultCommand": "sudo /usr/local/bin/cpbench-fault",
 *           "knownHostsFile": "/home/admin/.ssh/cpbench-lab.known_hosts"}
 *                                           (optional: without ssh, no network (b) and no faults; faultCommand
 *                                            defaults to the lab's; without knownHostsFile, host keys are accepted
 *                                            on first sight)
 *   "clients": [ {"host": "10.42.0.10", "name": "client-0"}, ... ]   (optional: the client hosts, client-0 first,
 *                                                                    where the lab runs load agents)
 * }</pre>
 * Members are listed in index order (member-0 first). Exactly one has {@code priority}; at most one is {@code slow},
 * and it is not the priority member. {@code sshHost} defaults to {@code host}.
 */
public record Inventory(String format, String clusterName, Integer rebalancePeriodSeconds, List<String> memberJvmOptions,
                        List<Member> members, Ssh ssh, List<Client> clients) {

    /** An inventory without client hosts (the remote topology needs none). */
    public Inventory(String format, String clusterName, Integer rebalancePeriodSeconds, List<String> memberJvmOptions,
                     List<Member> members, Ssh ssh) {
        this(format, clusterName, rebalancePeriodSeconds, memberJvmOptions, members, ssh, null);
    }

    /** A client host: where a load agent runs ({@code name} is the agent's). */
    public record Client(String host, String name) {
    }

    public static final String FORMAT = "cpbench-inventory/1";

    public record Member(String host, int port, boolean priority, boolean slow, String sshHost) {
        public String address() {
            return host + ":" + port;
        }

        public String sshTarget() {
            return sshHost == null || sshHost.isBlank() ? host : sshHost;
        }
    }

    /**
     * @param user         the SSH user on member hosts
     * @param identityFile the private key, or null for the SSH agent and default keys
     * @param netemCommand run on the slow member as {@code <netemCommand> on <delay>ms | off | show}
     * @param faultCommand run on any member for chaos runs (see {@code FaultsOverSsh}); null: the lab's
     * @param knownHostsFile the member hosts' pinned keys (an OpenSSH known_hosts file): every host must present the
     *                       key listed there, or ssh refuses it; null accepts a host's key on first sight (a hand-made
     *                       inventory; the lab's pins them)
     */
    public record Ssh(String user, String identityFile, String netemCommand, String faultCommand, String knownHostsFile) {

        public static final String LAB_FAULT_COMMAND = "sudo /usr/local/bin/cpbench-fault";

        public Ssh {
            faultCommand = faultCommand == null || faultCommand.isBlank() ? LAB_FAULT_COMMAND : faultCommand;
            knownHostsFile = knownHostsFile == null || knownHostsFile.isBlank() ? null : knownHostsFile;
        }

        /** Without pinned host keys: the hosts' keys are accepted on first sight and checked after. */
        public Ssh(String user, String identityFile, String netemCommand, String faultCommand) {
            this(user, identityFile, netemCommand, faultCommand, null);
        }
    }

    public Inventory {
        members = members == null ? List.of() : List.copyOf(members);
        clients = clients == null ? List.of() : List.copyOf(clients);
        memberJvmOptions = memberJvmOptions == null ? TopologySpec.DEFAULT_MEMBER_JVM_OPTIONS : List.copyOf(memberJvmOptions);
        rebalancePeriodSeconds = rebalancePeriodSeconds == null ? 5 : rebalancePeriodSeconds;
    }

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);

    /** Reads and validates an inventory; anything wrong is an {@link IllegalArgumentException} naming the file. */
    public static Inventory read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (JacksonException e) {
            throw new IllegalArgumentException("inventory " + file + ": not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException("inventory " + file + ": cannot read it (" + IoCause.of(e) + ")");
        }
        if (root != null && root.has("inventory") && root.get("inventory").has("value")) {
            root = root.get("inventory").get("value"); // terraform output -json
        } else if (root != null && root.has("value") && !root.has("format")) {
            root = root.get("value"); // terraform output -json inventory, older versions
        }
        Inventory inventory;
        try {
            inventory = JSON.treeToValue(root, Inventory.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("inventory " + file + ": " + mappingProblem(e));
        }
        if (inventory == null) {
            throw new IllegalArgumentException("inventory " + file + ": empty");
        }
        try {
            inventory.validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("inventory " + file + ": " + e.getMessage());
        }
        return inventory;
    }

    /**
     * Jackson's mapping errors, put in the inventory's terms: the field, by its path, and what it should hold,
     * without Jackson's advice about its own configuration.
     */
    static String mappingProblem(JacksonException e) {
        String path = "";
        if (e instanceof com.fasterxml.jackson.databind.JsonMappingException m) {
            StringBuilder p = new StringBuilder();
            for (com.fasterxml.jackson.databind.JsonMappingException.Reference ref : m.getPath()) {
                if (ref.getFieldName() != null) {
                    p.append(p.length() == 0 ? "" : ".").append(ref.getFieldName());
                } else if (ref.getIndex() >= 0) {
                    p.append('[').append(ref.getIndex()).append(']');
                }
            }
            path = p.toString();
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException u) {
            return "unknown field '" + (path.isEmpty() ? u.getPropertyName() : path) + "'; known: "
                    + u.getKnownPropertyIds();
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException m && m.getTargetType() != null
                && m.getTargetType().isPrimitive() && String.valueOf(m.getOriginalMessage()).startsWith("Cannot map `null`")) {
            return "'" + path + "' is missing or null; it must be "
                    + (m.getTargetType() == boolean.class ? "true or false" : "a number");
        }
        String message = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
        // Jackson appends advice about its own settings in parentheses ("(set DeserializationFeature... )"): drop it.
        message = message.replaceAll("\\s*\\([^()]*Feature[^()]*\\)", "");
        return (path.isEmpty() ? "" : "'" + path + "': ") + message.lines().findFirst().orElse("");
    }

    void validate() {
        if (!FORMAT.equals(format)) {
            throw new IllegalArgumentException("format is " + (format == null ? "missing" : "'" + format + "'")
                    + ", expected '" + FORMAT + "'");
        }
        if (clusterName == null || clusterName.isBlank()) {
            throw new IllegalArgumentException("clusterName is missing");
        }
        if (members.size() < 3 || members.size() > 9) {
            throw new IllegalArgumentException("a CP group needs 3-9 members, the inventory lists " + members.size());
        }
        checkName("clusterName", clusterName);
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            if (m == null || m.host() == null || m.host().isBlank() || m.port() < 1 || m.port() > 65535) {
                throw new IllegalArgumentException("member " + i + " needs a host and a port 1-65535");
            }
            checkHost("member " + i + "'s host", m.host());
            if (m.sshHost() != null && !m.sshHost().isBlank()) {
                checkHost("member " + i + "'s sshHost", m.sshHost());
            }
        }
        if (members.stream().map(Member::address).distinct().count() != members.size()) {
            throw new IllegalArgumentException("two members have the same host:port");
        }
        if (members.stream().filter(Member::priority).count() != 1) {
            throw new IllegalArgumentException("exactly one member must have \"priority\": true");
        }
        if (members.stream().filter(Member::slow).count() > 1) {
            throw new IllegalArgumentException("at most one member may be \"slow\": true");
        }
        if (members.stream().anyMatch(m -> m.slow() && m.priority())) {
            throw new IllegalArgumentException("the slow member must not be the priority member (network (b) needs it to follow)");
        }
        for (int i = 0; i < clients.size(); i++) {
            Client c = clients.get(i);
            if (c == null || c.host() == null || c.host().isBlank() || c.name() == null || c.name().isBlank()) {
                throw new IllegalArgumentException("client " + i + " needs a host and a name");
            }
        }
        for (int i = 0; i < clients.size(); i++) {
            checkHost("client " + i + "'s host", clients.get(i).host());
            checkName("client " + i + "'s name", clients.get(i).name());
        }
        if (clients.stream().map(Client::name).distinct().count() != clients.size()) {
            throw new IllegalArgumentException("two clients have the same name");
        }
        if (rebalancePeriodSeconds < 1) {
            throw new IllegalArgumentException("rebalancePeriodSeconds must be at least 1");
        }
        if (ssh != null && (ssh.user() == null || ssh.user().isBlank() || ssh.netemCommand() == null
                || ssh.netemCommand().isBlank())) {
            throw new IllegalArgumentException("ssh needs a user and a netemCommand");
        }
        if (ssh != null) {
            checkUser("ssh.user", ssh.user());
            checkPath("ssh.identityFile", ssh.identityFile());
            checkPath("ssh.knownHostsFile", ssh.knownHostsFile());
        }
    }

    /*
     * What goes into ssh's arguments and into the shell commands run on the hosts (the lab's scripts, the faults):
     * host names and addresses, a user, names. None may start with '-' (ssh would read "-oProxyCommand=..." as an
     * option and run it) or hold a shell metacharacter.
     */
    private static final java.util.regex.Pattern HOST = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]{0,252}");
    private static final java.util.regex.Pattern USER = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,31}");
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

    /** @throws IllegalArgumentException (one line) unless {@code host} is a host name or IPv4 address ssh cannot misread */
    public static void checkHost(String what, String host) {
        if (!HOST.matcher(host).matches()) {
            throw new IllegalArgumentException(what + " " + quoted(host) + " is not a host name or IPv4 address (letters,"
                    + " digits, '.' and '-', starting with a letter or digit)");
        }
    }

    /** @throws IllegalArgumentException (one line) unless {@code user} is a user name ssh and a shell read as one */
    public static void checkUser(String what, String user) {
        if (!USER.matcher(user).matches()) {
            throw new IllegalArgumentException(what + " " + quoted(user) + " is not a user name (a letter or '_',"
                    + " then letters, digits, '_', '.' or '-', at most 32)");
        }
    }

    private static void checkName(String what, String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " " + quoted(name) + " must be letters, digits, '_', '.' or '-'"
                    + " (not starting with '.' or '-'), at most 64");
        }
    }

    private static void checkPath(String what, String path) {
        if (path != null && (path.startsWith("-") || path.chars().anyMatch(c -> c < ' ' || c == 127))) {
            throw new IllegalArgumentException(what + " " + quoted(path) + " must be a path (not starting with"
                    + " '-', no control characters)");
        }
    }

    /** {@code text} in quotes, with control characters shown as '?' (the error is one line). */
    private static String quoted(String text) {
        return "'" + text.replaceAll("\\p{Cntrl}", "?") + "'";
    }

    public List<String> addresses() {
        return members.stream().map(Member::address).toList();
    }

    public int priorityIndex() {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).priority()) {
                return i;
            }
        }
        throw new IllegalStateException("no priority member");
    }

    /** The member marked slow, or -1. */
    public int slowIndex() {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).slow()) {
                return i;
            }
        }
        return -1;
    }

    /** Member {@code index}'s settings: bound and announced at its host and port, priority 1 for the priority member. */
    public MemberSettings memberSettings(int index) {
        Member m = members.get(index);
        return MemberSettings.builder(clusterName, m.host(), m.port(), addresses()).priority(m.priority() ? 1 : 0)
                .rebalancePeriodSeconds(rebalancePeriodSeconds).build();
    }

    /** Every member's command line for a host where cp-bench's jar is {@code jar} and logs go to {@code logDir}. */
    public List<List<String>> memberCommands(String java, String jar, String logDir) {
        List<List<String>> commands = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            commands.add(new MemberCommand(java, jar, memberJvmOptions, logDir + "/member-" + i + ".gc.log",
                    memberSettings(i), false).argv());
        }
        return commands;
    }
}
