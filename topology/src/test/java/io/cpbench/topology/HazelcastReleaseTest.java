package io.cpbench.topology;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which releases are refused, and how a jar is fetched into the local repository: from a repository on loopback. */
class HazelcastReleaseTest {

    @TempDir
    Path repo;
    private HttpServer server;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, String> requireAuth = new ConcurrentHashMap<>();
    private final AtomicInteger refused = new AtomicInteger();

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            String wanted = requireAuth.entrySet().stream().filter(e -> exchange.getRequestURI().getPath().startsWith(e.getKey()))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            if (wanted != null && !wanted.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                refused.incrementAndGet();
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"mirror\"");
                exchange.sendResponseHeaders(401, -1);
                exchange.close();
                return;
            }
            byte[] body = files.get(exchange.getRequestURI().getPath());
            exchange.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        server.start();
        System.setProperty("maven.repo.local", repo.toString());
        System.setProperty("cpbench.maven.repository", "http://127.0.0.1:" + server.getAddress().getPort() + "/m2/");
    }

    @AfterEach
    void stop() {
        server.stop(0);
        System.clearProperty("maven.repo.local");
        System.clearProperty("cpbench.maven.repository");
    }

    private void publish(String version, byte[] jar, String sha1) {
        String path = "/m2/com/hazelcast/hazelcast/" + version + "/hazelcast-" + version + ".jar";
        files.put(path, jar);
        files.put(path + ".sha1", sha1.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * How a release's jar is had, before the release's own pin is checked: the fetching tests below serve jars of
     * their own making, which the pin (checked in {@link #aJarThatIsNotTheReleaseIsRefusedWhateverItsRepositorySays})
     * would refuse.
     */
    private static Path fetch(HazelcastRelease release) {
        return MavenRepositories.resolveChecked("com.hazelcast", "hazelcast", release.version(),
                "--hazelcast-version " + release.version());
    }

    private static String sha1(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    }

    @Test
    void aJarIsFetchedOnceItsChecksumCheckedAndThenTakenFromTheRepository() throws Exception {
        byte[] jar = "not really a jar, but bytes to check".getBytes(StandardCharsets.UTF_8);
        publish("5.3.2", jar, sha1(jar) + "  hazelcast-5.3.2.jar\n");
        HazelcastRelease release = new HazelcastRelease("5.3.2");

        Path fetched = fetch(release);
        int afterFirst = requests.get();
        Path again = fetch(release);

        assertThat(fetched).isEqualTo(repo.resolve("com/hazelcast/hazelcast/5.3.2/hazelcast-5.3.2.jar")).hasBinaryContent(jar);
        assertThat(again).isEqualTo(fetched);
        // as Maven 3.9 does: the repository's prefix list (Maven Resolver's remote filter), the jar, its .sha1
        assertThat(seen).as("fetched once each").containsExactly("GET /m2/.meta/prefixes.txt",
                "GET /m2/com/hazelcast/hazelcast/5.3.2/hazelcast-5.3.2.jar",
                "GET /m2/com/hazelcast/hazelcast/5.3.2/hazelcast-5.3.2.jar.sha1");
        assertThat(requests.get()).as("the second time, from the repository").isEqualTo(afterFirst);
        assertThat(fetched.resolveSibling("hazelcast-5.3.2.jar.sha1")).as("kept beside it, as Maven keeps it").exists();
        try (var left = Files.list(fetched.getParent())) {
            assertThat(left.map(f -> f.getFileName().toString())).as("no partial file left")
                    .containsExactlyInAnyOrder("hazelcast-5.3.2.jar", "hazelcast-5.3.2.jar.sha1", "_remote.repositories");
        }
    }

    @Test
    void aJarWhoseChecksumDiffersIsRefusedAndNotKept() throws Exception {
        byte[] jar = "the bytes".getBytes(StandardCharsets.UTF_8);
        publish("5.3.3", jar, sha1("other bytes".getBytes(StandardCharsets.UTF_8)));
        HazelcastRelease release = new HazelcastRelease("5.3.3");

        assertThatThrownBy(() -> fetch(release)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--hazelcast-version 5.3.3: cannot fetch").hasMessageContaining("its SHA-1 is " + sha1(jar));
        assertThat(release.localJar()).doesNotExist();
        if (Files.isDirectory(release.localJar().getParent())) {
            try (var left = Files.list(release.localJar().getParent())) {
                assertThat(left.map(f -> f.getFileName().toString())).as("no jar, whole or partial, left")
                        .noneMatch(name -> name.contains(".jar") && !name.endsWith(".lastUpdated"));
            }
        }
    }

    @Test
    void aReleaseTheRepositoryDoesNotHaveSaysSoAndHowToFetchItOffline() {
        assertThatThrownBy(() -> fetch(new HazelcastRelease("5.3.4"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no such release there (HTTP 404)")
                .hasMessageContaining("./mvnw dependency:get -Dartifact=com.hazelcast:hazelcast:5.3.4");
    }

    @Test
    void aJarInTheLocalRepositoryIsCheckedAgainstItsChecksumBeforeUse() throws Exception {
        byte[] jar = "published bytes".getBytes(StandardCharsets.UTF_8);
        publish("5.3.5", jar, sha1(jar));
        HazelcastRelease release = new HazelcastRelease("5.3.5");
        Path fetched = fetch(release);
        Files.write(fetched, "tampered bytes".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> fetch(release)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--hazelcast-version 5.3.5: the jar in the local repository, " + fetched + ", is not what was"
                        + " published (its SHA-1 is " + sha1("tampered bytes".getBytes(StandardCharsets.UTF_8))
                        + ", its .sha1 beside it says " + sha1(jar) + "); delete " + fetched.getParent() + " and run again");
        // no .sha1 beside it: the repository's is asked for
        Files.write(fetched, jar);
        Files.delete(fetched.resolveSibling("hazelcast-5.3.5.jar.sha1"));
        assertThat(fetch(release)).isEqualTo(fetched);
        assertThat(seen).contains("GET /m2/com/hazelcast/hazelcast/5.3.5/hazelcast-5.3.5.jar.sha1");
    }

    /**
     * As a user behind a repository manager has it: settings.xml names a mirror of central (on loopback, wanting a
     * user and password from a server entry) and a localRepository; central itself is unreachable. The jar comes
     * through the mirror, into that repository.
     */
    @Test
    void aMirrorAndCredentialsAndLocalRepositoryFromSettingsXmlApply(@TempDir Path home) throws Exception {
        byte[] jar = "through the mirror".getBytes(StandardCharsets.UTF_8);
        String path = "/mirror/com/hazelcast/hazelcast/5.3.6/hazelcast-5.3.6.jar";
        files.put(path, jar);
        files.put(path + ".sha1", sha1(jar).getBytes(StandardCharsets.US_ASCII));
        requireAuth.put("/mirror/", "Basic " + java.util.Base64.getEncoder().encodeToString("builder:s3cret".getBytes(StandardCharsets.UTF_8)));
        Path localRepo = home.resolve("elsewhere-repo");
        Files.createDirectories(home.resolve(".m2"));
        Files.writeString(home.resolve(".m2/settings.xml"), """
                <settings>
                  <localRepository>%s</localRepository>
                  <mirrors>
                    <mirror><id>corp</id><mirrorOf>central</mirrorOf><url>http://127.0.0.1:%d/mirror/</url></mirror>
                  </mirrors>
                  <servers>
                    <server><id>corp</id><username>builder</username><password>s3cret</password></server>
                  </servers>
                </settings>
                """.formatted(localRepo, server.getAddress().getPort()));
        String oldHome = System.getProperty("user.home");
        System.clearProperty("maven.repo.local");
        System.setProperty("cpbench.maven.repository", "http://127.0.0.1:9/closed/");
        System.setProperty("user.home", home.toString());
        try {
            assertThat(new HazelcastRelease("5.3.6").source()).as("what the 'fetching' line names")
                    .isEqualTo("http://127.0.0.1:" + server.getAddress().getPort() + path);
            Path fetched = fetch(new HazelcastRelease("5.3.6"));
            assertThat(fetched).isEqualTo(localRepo.resolve("com/hazelcast/hazelcast/5.3.6/hazelcast-5.3.6.jar")).hasBinaryContent(jar);
            assertThat(seen).contains("GET " + path).noneMatch(r -> r.contains("/closed/"));
            // the mirror serves only to builder:s3cret, so the jar came with the server entry's credentials
        } finally {
            System.setProperty("user.home", oldHome);
        }
        // without the credentials the mirror refuses, and the line says so, naming the mirror
        Files.writeString(home.resolve(".m2/settings.xml"), Files.readString(home.resolve(".m2/settings.xml"))
                .replace("s3cret", "wrong"));
        System.setProperty("user.home", home.toString());
        try {
            int before = refused.get();
            files.put("/mirror/com/hazelcast/hazelcast/5.3.7/hazelcast-5.3.7.jar", jar);
            assertThatThrownBy(() -> fetch(new HazelcastRelease("5.3.7"))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--hazelcast-version 5.3.7: cannot fetch http://127.0.0.1:"
                            + server.getAddress().getPort() + "/mirror/com/hazelcast/hazelcast/5.3.7/hazelcast-5.3.7.jar (");
            assertThat(refused.get()).as("the mirror refused the wrong password").isGreaterThan(before);
        } finally {
            System.setProperty("user.home", oldHome);
        }
    }

    @Test
    void releasesOutsideTheOpenSourceCpRangeAreRefusedByNumber() {
        assertThatThrownBy(() -> new HazelcastRelease("banana")).hasMessage("--hazelcast-version banana: expected a release number like 5.3.8");
        assertThatThrownBy(() -> new HazelcastRelease("9.9")).hasMessageContaining("expected a release number like 5.3.8");
        assertThatThrownBy(() -> new HazelcastRelease("6.0.0")).hasMessageContaining("cp-bench runs Hazelcast 5.x releases");
        assertThatThrownBy(() -> new HazelcastRelease("5.5.0")).hasMessageContaining("Enterprise licence");
        assertThatThrownBy(() -> new HazelcastRelease("5.7.0")).hasMessageContaining("Enterprise licence");
        assertThat(new HazelcastRelease(" 5.3.8 ").version()).isEqualTo("5.3.8");
        assertThat(HazelcastRelease.build().isBuild()).isTrue();
        assertThat(requests.get()).as("nothing fetched to decide").isZero();
    }

    /** A mirror that serves another jar under a release's name, with a .sha1 to match: refused by the pin. */
    @Test
    void aJarThatIsNotTheReleaseIsRefusedWhateverItsRepositorySays() throws Exception {
        byte[] jar = "a jar of someone else's making".getBytes(StandardCharsets.UTF_8);
        publish("5.3.2", jar, sha1(jar));
        HazelcastRelease release = new HazelcastRelease("5.3.2");
        Path local = release.localJar();
        String actual = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(jar));
        assertThatThrownBy(release::jar).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--hazelcast-version 5.3.2: " + local + " is not Hazelcast's release 5.3.2 (its SHA-256 is "
                        + actual + ", the release's is " + HazelcastRelease.PINS.get("5.3.2") + "; whatever its"
                        + " repository's checksum said); delete " + local.getParent() + " and fetch it from Maven Central");
    }

    /** The real jar (the build's own, 5.4.0, from this test's classpath) passes its pin. */
    @Test
    void theReleasedJarPassesItsPin() throws Exception {
        Path real = Path.of(com.hazelcast.core.Hazelcast.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        byte[] jar = Files.readAllBytes(real);
        publish("5.4.0", jar, sha1(jar));
        assertThat(new HazelcastRelease("5.4.0").jar()).hasSameBinaryContentAs(real);
        assertThat(HazelcastRelease.PINS).hasSize(27).containsKeys("5.0.1", "5.1.7", "5.2.5", "5.3.8", "5.4.0")
                .doesNotContainKey("5.3.3"); // never released
        assertThat(HazelcastRelease.PINS.firstKey()).isEqualTo("5.0.1");
        assertThat(HazelcastRelease.PINS.lastKey()).isEqualTo("5.4.0");
    }

    @Test
    void aReleaseWithNoPinIsRefusedBeforeAnythingIsFetched() {
        assertThatThrownBy(() -> new HazelcastRelease("5.3.3").jar()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--hazelcast-version 5.3.3: not an open-source release cp-bench knows the SHA-256"
                        + " of; it knows 5.0.1, 5.0.2,").hasMessageEndingWith("5.3.8, 5.4.0");
        assertThat(requests.get()).isZero();
    }

    /** A repository or mirror on plain HTTP elsewhere than loopback is refused before any request is made. */
    @Test
    void plainHttpIsRefusedUnlessOnLoopback() {
        System.setProperty("cpbench.maven.repository", "http://repo.example.invalid/m2/");
        assertThatThrownBy(() -> fetch(new HazelcastRelease("5.3.7"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--hazelcast-version 5.3.7: refusing to fetch from http://repo.example.invalid/m2/ (a mirror in"
                        + " settings.xml?): jars are fetched over HTTPS only (plain HTTP only from this machine's loopback)");
        System.setProperty("cpbench.maven.repository", "ftp://127.0.0.1/m2/");
        assertThatThrownBy(() -> fetch(new HazelcastRelease("5.3.7"))).hasMessageContaining("refusing to fetch from ftp://");
        assertThat(requests.get()).isZero();
    }
}
