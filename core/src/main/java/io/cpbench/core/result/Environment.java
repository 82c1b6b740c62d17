package io.cpbench.core.result;

import com.hazelcast.instance.BuildInfoProvider;
import io.soabase.recordbuilder.core.RecordBuilder;

import java.net.InetAddress;

/** Where and on what a run happened. */
@RecordBuilder
public record Environment(String cpbenchVersion, String hazelcastVersion, String javaVersion, String javaVendor,
                          String jvm, String os, String arch, int cores, long maxHeapBytes, String host) {

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
                .maxHeapBytes(Runtime.getRuntime().maxMemory()).host(host).build();
    }
}
