package io.cpbench.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live view on a real socket, asked as a browser would be after DNS rebinding (its Host names another site) and as
 * one on this machine is: only the second gets the run's numbers.
 */
class LiveViewHostTest {

    @TempDir
    Path runDir;

    @Test
    void answersOnlyItsOwnHost() throws Exception {
        try (LiveView view = LiveView.start(0, runDir, "host check")) {
            int port = Integer.parseInt(view.url().replaceAll(".*:(\\d+)/$", "$1"));
            view.sample("client-leader", 123.0, 900, 2_000L, 10, 0);

            assertThat(get(port, "127.0.0.1:" + port, "/metrics")).startsWith("HTTP/1.1 200").contains("cpbench_up 1");
            assertThat(get(port, "localhost:" + port, "/metrics")).startsWith("HTTP/1.1 200");
            for (String host : new String[]{"attacker.example:" + port, "127.0.0.1.attacker.example:" + port,
                    "127.0.0.1:" + (port + 1), "127.0.0.1", null}) {
                String answer = get(port, host, "/data.json");
                assertThat(answer).as("Host: " + host).startsWith("HTTP/1.1 421")
                        .contains("this live view answers only as http://127.0.0.1:" + port + "/")
                        .doesNotContain("client-leader");
            }
        }
    }

    /** One request on a plain socket (an HTTP client library sets Host itself), with {@code host} as its Host line. */
    private static String get(int port, String host, String path) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            String request = "GET " + path + " HTTP/1.1\r\n" + (host == null ? "" : "Host: " + host + "\r\n")
                    + "Connection: close\r\n\r\n";
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
