package io.cpbench.topology;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Port claims: a port picked by one cp-bench process is not picked by another until given back, including when the
 * other is a different process (the race two runs started together had), and a claim dies with its process.
 */
class FreePortsTest {

    private static final List<String> LOOPBACK = List.of("127.0.0.1");

    @Test
    void twoPicksInOneProcessGetDisjointPortsAndAReleasedPortCanBePickedAgain() {
        int first = FreePorts.consecutive(LOOPBACK, 3, 21000);
        int second = FreePorts.consecutive(LOOPBACK, 3, first);
        try {
            assertThat(second).isGreaterThanOrEqualTo(first + 3);
            assertThat(FreePorts.claimIfFree(LOOPBACK, first, 3)).as("claimed already, by this process").isFalse();
            assertThat(FreePorts.claimNamed(LOOPBACK, first, 3)).as("named ports this process holds for itself").isTrue();
            FreePorts.release(first, 3);
            assertThat(FreePorts.held(first)).isFalse();
            assertThat(FreePorts.claimIfFree(LOOPBACK, first, 3)).as("given back").isTrue();
        } finally {
            FreePorts.release(first, 3);
            FreePorts.release(second, 3);
        }
    }

    @Test
    void aPortInUseIsNotPickedNorClaimed() throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = busy.getLocalPort();
            assertThat(FreePorts.claimIfFree(LOOPBACK, port, 1)).isFalse();
            assertThat(FreePorts.held(port)).as("nothing claimed when the check fails").isFalse();
        }
    }

    @Test
    void aClaimOfAnotherProcessIsRespectedUntilThatProcessEnds() throws Exception {
        int port = FreePorts.consecutive(LOOPBACK, 2, 22000);
        FreePorts.release(port, 2);
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Holder.class.getName(), Integer.toString(port))
                .redirectErrorStream(true).start();
        int next = 0;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("claimed " + port);
            assertThat(FreePorts.claimIfFree(LOOPBACK, port, 2)).as("claimed by the other process").isFalse();
            next = FreePorts.consecutive(LOOPBACK, 2, port);
            assertThat(next).as("the next pick steps over it").isGreaterThanOrEqualTo(port + 2);
        } finally {
            other.destroyForcibly();
            other.waitFor(10, TimeUnit.SECONDS);
        }
        // killed, not closed: the operating system dropped its lock
        assertThat(FreePorts.claimIfFree(LOOPBACK, port, 2)).isTrue();
        FreePorts.release(port, 2);
        FreePorts.release(next, 2);
    }

    /** Another process: claims two ports from the one given, says so, and waits to be killed. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            int port = Integer.parseInt(args[0]);
            if (!FreePorts.claimIfFree(LOOPBACK, port, 2)) {
                System.out.println("not free " + port);
                return;
            }
            System.out.println("claimed " + port);
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
