package io.cpbench.core.result;

import com.hazelcast.instance.BuildInfoProvider;

import java.net.InetAddress;

/** Where and on what a run happened. */
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
        return new Environment(version == null ? "dev" : version, BuildInfoProvider.getBuildInfo().getVersion(),
                System.getProperty("java.version"), System.getProperty("java.vendor"),
                System.getProperty("java.vm.name"), System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory(), host);
    }
}
