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

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
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

    private static String sha1(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    }

    @Test
    void aJarIsFetchedOnceItsChecksumCheckedAndThenTakenFromTheRepository() throws Exception {
        byte[] jar = "not really a jar, but bytes to check".getBytes(StandardCharsets.UTF_8);
        publish("5.3.2", jar, sha1(jar) + "  hazelcast-5.3.2.jar\n");
        HazelcastRelease release = new HazelcastRelease("5.3.2");

        Path fetched = release.jar();
        int afterFirst = requests.get();
        Path again = release.jar();

        assertThat(fetched).isEqualTo(repo.resolve("com/hazelcast/hazelcast/5.3.2/hazelcast-5.3.2.jar")).hasBinaryContent(jar);
        assertThat(again).isEqualTo(fetched);
        assertThat(afterFirst).as("the .sha1 and the jar").isEqualTo(2);
        assertThat(requests.get()).as("the second time, from the repository").isEqualTo(2);
        try (var left = Files.list(fetched.getParent())) {
            assertThat(left).as("no partial file left").containsExactly(fetched);
        }
    }

    @Test
    void aJarWhoseChecksumDiffersIsRefusedAndNotKept() throws Exception {
        byte[] jar = "the bytes".getBytes(StandardCharsets.UTF_8);
        publish("5.3.3", jar, sha1("other bytes".getBytes(StandardCharsets.UTF_8)));
        HazelcastRelease release = new HazelcastRelease("5.3.3");

        assertThatThrownBy(release::jar).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--hazelcast-version 5.3.3: cannot fetch").hasMessageContaining("its SHA-1 is " + sha1(jar));
        assertThat(release.localJar()).doesNotExist();
        try (var left = Files.list(release.localJar().getParent())) {
            assertThat(left).as("no partial file left").isEmpty();
        }
    }

    @Test
    void aReleaseTheRepositoryDoesNotHaveSaysSoAndHowToFetchItOffline() {
        assertThatThrownBy(() -> new HazelcastRelease("5.3.4").jar()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no such release there (HTTP 404)")
                .hasMessageContaining("./mvnw dependency:get -Dartifact=com.hazelcast:hazelcast:5.3.4");
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
}
