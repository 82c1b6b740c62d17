package io.cpbench.core.result;

import com.hazelcast.instance.BuildInfoProvider;
import io.soabase.recordbuilder.core.RecordBuilder;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.util.Properties;

/**
 * Where and on what a run happened.
 *
 * @param cpbenchCommit the git commit cp-bench was built from (abbreviated, {@code -dirty} when the tree had changes),
 *                      from {@code git.properties} that the build writes; null when built outside a git checkout, and in
 *                      results written before it was recorded
 * @param childJvmOptions the options {@code CPBENCH_CHILD_JVM_OPTIONS} added to every JVM the run started on this
 *                        machine (members, agents, workers; the topology module's {@code ChildJvmOptions}), or null
 *                        when it added none: a run with them did not measure the defaults
 */
@RecordBuilder
public record Environment(String cpbenchVersion, String hazelcastVersion, String javaVersion, String javaVendor,
                          String jvm, String os, String arch, int cores, long maxHeapBytes, String host,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String cpbenchCommit,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String childJvmOptions) {

    /** Where the build leaves what git said (git-commit-id-maven-plugin, in core's POM). */
    private static final String GIT_PROPERTIES = "/io/cpbench/core/git.properties";

    public static Environment current() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "unknown";
        }
        String version = Environment.class.getPackage().getImplementationVersion();
        return EnvironmentBuilder.builder().cpbenchVersion(version == null ? "dev" : version)
                .hazelcastVersion(BuildInfoProvider.getBuildInfo().getVersion())
                .javaVersion(System.getProperty("java.version")).javaVendor(System.getProperty("java.vendor"))
                .jvm(System.getProperty("java.vm.name"))
                .os(System.getProperty("os.name") + " " + System.getProperty("os.version"))
                .arch(System.getProperty("os.arch")).cores(Runtime.getRuntime().availableProcessors())
                .maxHeapBytes(Runtime.getRuntime().maxMemory()).host(host).cpbenchCommit(commit())
                .childJvmOptions(childJvmOptions(System.getenv("CPBENCH_CHILD_JVM_OPTIONS"))).build();
    }

    /** {@code CPBENCH_CHILD_JVM_OPTIONS} as recorded: its options with single spaces between, null when it has none. */
    static String childJvmOptions(String value) {
        return value == null || value.isBlank() ? null : String.join(" ", value.strip().split("\\s+"));
    }

    /** This build's commit, or null when it was not built from a git checkout. */
    static String commit() {
        try (InputStream in = Environment.class.getResourceAsStream(GIT_PROPERTIES)) {
            if (in == null) {
                return null;
            }
            Properties git = new Properties();
            git.load(in);
            String id = git.getProperty("git.commit.id.abbrev");
            if (id == null || id.isBlank()) {
                return null;
            }
            return "true".equals(git.getProperty("git.dirty")) ? id + "-dirty" : id;
        } catch (IOException e) {
            return null;
        }
    }
}
