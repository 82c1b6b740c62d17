package io.cpbench.topology;

import com.hazelcast.instance.BuildInfoProvider;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Hazelcast release that members can run, and where its jar is. The jar ({@code com.hazelcast:hazelcast}, which
 * holds member and client and needs nothing else) is had as Maven has it ({@link MavenRepositories}): the local
 * repository first, checked against its checksum; else fetched into it from Maven Central, or from the mirror the
 * user's settings.xml names (over HTTPS). Either way it must then have the SHA-256 pinned here for its release
 * ({@link #PINS}), so a mirror that serves another jar with a matching .sha1 is still refused.
 *
 * <p>Which releases: 5.x up to 5.4.x. Hazelcast 5.5.0 and later, as published on Maven Central, refuse the CP
 * Subsystem without an Enterprise licence: three 5.5.0 members with {@code cp-member-count} 3 fail at start with
 * {@code IllegalStateException: CP subsystem is a licensed feature}. cp-bench refuses them before any member starts.
 *
 * @param version a release number, {@code 5.3.8}
 */
public record HazelcastRelease(String version) {

    private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    public HazelcastRelease {
        Matcher m = RELEASE.matcher(version == null ? "" : version.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("--hazelcast-version " + version + ": expected a release number like 5.3.8");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (major != 5) {
            throw new IllegalArgumentException("--hazelcast-version " + version + ": cp-bench runs Hazelcast 5.x releases"
                    + " (5.0.0 to 5.4.0 have the open-source CP Subsystem)");
        }
        if (minor >= 5) {
            throw new IllegalArgumentException("--hazelcast-version " + version + ": Hazelcast 5.5.0 and later refuse the CP"
                    + " Subsystem without an Enterprise licence (members fail at start: 'CP subsystem is a licensed"
                    + " feature'); the last open-source CP release is 5.4.0");
        }
        version = version.trim();
    }

    /** The release this build was compiled against and bundles (its clients are always this one). */
    public static HazelcastRelease build() {
        return new HazelcastRelease(BuildInfoProvider.getBuildInfo().getVersion());
    }

    /** Whether this is the build's own release. */
    public boolean isBuild() {
        return version.equals(BuildInfoProvider.getBuildInfo().getVersion());
    }

    /** Where the jar lies in the local Maven repository ({@link MavenRepositories#local()}), whether or not it is there. */
    public Path localJar() {
        return MavenRepositories.local().resolve(Path.of("com", "hazelcast", "hazelcast", version, "hazelcast-" + version + ".jar"));
    }

    /** Where {@link #jar()} fetches the jar from when the local repository lacks it: a mirror's URL when one applies. */
    public String source() {
        return MavenRepositories.source("com.hazelcast", "hazelcast", version);
    }

    /**
     * The release's jar, as Maven would have it: through Maven's own resolver, with the user's settings.xml (mirrors,
     * proxies, credentials, localRepository), from the local repository when it is there, else fetched into it and
     * its checksum checked. A jar already in the local repository is checked against its {@code .sha1} before use.
     *
     * @throws IllegalArgumentException with one line when it cannot be had (no such release, offline, a bad checksum)
     */
    public Path jar() {
        String what = "--hazelcast-version " + version;
        String pinned = PINS.get(version);
        if (pinned == null) {
            throw new IllegalArgumentException(what + ": not an open-source release cp-bench knows the SHA-256 of; it knows "
                    + String.join(", ", PINS.keySet()));
        }
        Path jar = MavenRepositories.resolveChecked("com.hazelcast", "hazelcast", version, what);
        String actual;
        try {
            actual = MavenRepositories.digest(jar, "SHA-256");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(what + ": cannot read " + jar + ": " + e.getMessage());
        }
        if (!actual.equals(pinned)) {
            throw new IllegalArgumentException(what + ": " + jar + " is not Hazelcast's release " + version + " (its SHA-256 is "
                    + actual + ", the release's is " + pinned + "; whatever its repository's checksum said); delete "
                    + jar.getParent() + " and fetch it from Maven Central");
        }
        return jar;
    }

    /**
     * The SHA-256 of each release's jar as Maven Central published it, by version (hazelcast-releases.sha256, with how
     * it was made): a jar is checked against these whatever repository or mirror it came from, since a repository's
     * own .sha1 comes from the same server as the jar.
     */
    static final java.util.SortedMap<String, String> PINS;
    private static final Pattern PIN = Pattern.compile("([0-9a-f]{64})  hazelcast-(\\d+\\.\\d+\\.\\d+)\\.jar");

    static {
        PINS = pins();
    }

    private static java.util.SortedMap<String, String> pins() {
        java.util.SortedMap<String, String> pins = new java.util.TreeMap<>(java.util.Comparator
                .comparing((String v) -> java.util.Arrays.stream(v.split("\\.")).mapToInt(Integer::parseInt).toArray(),
                        java.util.Arrays::compare));
        try (java.io.InputStream in = HazelcastRelease.class.getResourceAsStream("hazelcast-releases.sha256")) {
            if (in == null) {
                throw new IllegalStateException("hazelcast-releases.sha256 is missing from cp-bench's jar");
            }
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).split("\n")) {
                Matcher m = PIN.matcher(line.strip());
                if (m.matches()) {
                    pins.put(m.group(2), m.group(1));
                } else if (!line.isBlank() && !line.startsWith("#")) {
                    throw new IllegalStateException("hazelcast-releases.sha256: not a pin: " + line);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return java.util.Collections.unmodifiableSortedMap(pins);
    }


    @Override
    public String toString() {
        return version;
    }
}
