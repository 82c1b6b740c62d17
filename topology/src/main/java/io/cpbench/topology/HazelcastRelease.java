package io.cpbench.topology;

import com.hazelcast.instance.BuildInfoProvider;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Hazelcast release that members can run, and where its jar is. The jar ({@code com.hazelcast:hazelcast}, which
 * holds member and client and needs nothing else) is taken from the local Maven repository, the one the Maven
 * wrapper fills ({@code ~/.m2/repository}, or {@code -Dmaven.repo.local}); when it is not there yet it is fetched
 * once from Maven Central into that repository, its SHA-1 checked against the one Central publishes, and kept.
 *
 * <p>Which releases: 5.x up to 5.4.x. Hazelcast 5.5.0 and later, as published on Maven Central, refuse the CP
 * Subsystem without an Enterprise licence: three 5.5.0 members with {@code cp-member-count} 3 fail at start with
 * {@code IllegalStateException: CP subsystem is a licensed feature}. cp-bench refuses them before any member starts.
 *
 * @param version a release number, {@code 5.3.8}
 */
public record HazelcastRelease(String version) {

    /** Where jars are fetched from, unless {@code -Dcpbench.maven.repository} names another (a mirror, a test's). */
    public static final String CENTRAL = "https://repo.maven.apache.org/maven2/";
    private static final Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The 5.4.0 jar is some 17 MB: this allows about 100 KB/s. */
    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(3);

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

    /** Where the jar lies in the local Maven repository, whether or not it is there. */
    public Path localJar() {
        Path repository = Path.of(System.getProperty("maven.repo.local",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
        return repository.resolve(Path.of("com", "hazelcast", "hazelcast", version, "hazelcast-" + version + ".jar"));
    }

    /**
     * The release's jar: from the local Maven repository, fetched into it first when it is not there.
     *
     * @throws IllegalArgumentException with one line when it cannot be had (no such release, offline, a bad checksum)
     */
    public Path jar() {
        Path jar = localJar();
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        String base = System.getProperty("cpbench.maven.repository", CENTRAL);
        String url = (base.endsWith("/") ? base : base + "/") + "com/hazelcast/hazelcast/" + version + "/hazelcast-" + version + ".jar";
        try {
            fetch(url, jar);
            return jar;
        } catch (IOException e) {
            throw new IllegalArgumentException("--hazelcast-version " + version + ": cannot fetch " + url + " (" + why(e)
                    + "); offline, put the jar at " + jar + " first, for example with ./mvnw dependency:get"
                    + " -Dartifact=com.hazelcast:hazelcast:" + version);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("--hazelcast-version " + version + ": interrupted while fetching " + url);
        }
    }

    private static void fetch(String url, Path jar) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        String expected = get(http, url + ".sha1", HttpResponse.BodyHandlers.ofString()).trim().split("\\s+")[0];
        if (!expected.matches("[0-9a-fA-F]{40}")) {
            throw new IOException("its .sha1 is not a SHA-1: " + abbreviate(expected));
        }
        Files.createDirectories(jar.getParent());
        Path part = Files.createTempFile(jar.getParent(), jar.getFileName().toString(), ".part");
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            try (InputStream in = get(http, url, HttpResponse.BodyHandlers.ofInputStream())) {
                byte[] buffer = new byte[1 << 16];
                try (var out = Files.newOutputStream(part)) {
                    for (int n; (n = in.read(buffer)) > 0; ) {
                        sha1.update(buffer, 0, n);
                        out.write(buffer, 0, n);
                    }
                }
            }
            String actual = HexFormat.of().formatHex(sha1.digest());
            if (!actual.equalsIgnoreCase(expected)) {
                throw new IOException("its SHA-1 is " + actual + ", Maven Central says " + expected);
            }
            try {
                Files.move(part, jar, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, jar, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("no SHA-1 in this JVM", e);
        } finally {
            Files.deleteIfExists(part);
        }
    }

    private static <T> T get(HttpClient http, String url, HttpResponse.BodyHandler<T> body) throws IOException, InterruptedException {
        HttpResponse<T> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(FETCH_TIMEOUT).GET().build(), body);
        if (response.statusCode() != 200) {
            if (response.body() instanceof InputStream in) {
                in.close();
            }
            throw new IOException(response.statusCode() == 404 ? "no such release there (HTTP 404)" : "HTTP " + response.statusCode());
        }
        return response.body();
    }

    private static String why(IOException e) {
        if (e instanceof java.net.ConnectException) {
            return "cannot connect";
        }
        if (e instanceof java.net.http.HttpTimeoutException) {
            return "timed out";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }

    @Override
    public String toString() {
        return version;
    }
}
