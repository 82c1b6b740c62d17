package io.cpbench.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The one command line that starts a cp-bench CP member: the local topology runs it for each member process, and
 * the AWS lab runs it, argument for argument, on each member host ({@code cpbench lab member-commands} writes it
 * there). Only the paths and whether the member exits with its parent differ.
 *
 * @param java           the {@code java} executable
 * @param classpath      cp-bench's jar(s), with Hazelcast
 * @param jvmOptions     heap and similar options ({@link TopologySpec#DEFAULT_MEMBER_JVM_OPTIONS} by default)
 * @param gcLog          where the member's GC log goes
 * @param settings       the member's settings, priority included
 * @param exitWithParent exit when standard input closes (local members die with the CLI; lab members are run by
 *                       systemd and do not)
 */
public record MemberCommand(String java, String classpath, List<String> jvmOptions, String gcLog,
                            MemberSettings settings, boolean exitWithParent) {

    /** Hazelcast on Java 17 (docs/hazelcast-facts.md, fact 9). */
    public static final List<String> HAZELCAST_JVM_FLAGS = List.of(
            "--add-modules", "java.se",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "-Dhazelcast.phone.home.enabled=false",
            "-Djava.net.preferIPv4Stack=true");

    public MemberCommand {
        jvmOptions = List.copyOf(jvmOptions);
    }

    public List<String> argv() {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(HAZELCAST_JVM_FLAGS);
        command.addAll(jvmOptions);
        // GC pauses in a member show up as client latency outliers; keep the evidence next to the member's log.
        command.add("-Xlog:gc:file=" + gcLog + ":uptime,time");
        command.add("-cp");
        command.add(classpath);
        command.add(MemberLauncher.class.getName());
        command.addAll(settings.toArgs());
        if (exitWithParent) {
            command.add("--exit-with-parent");
        }
        return List.copyOf(command);
    }
}
