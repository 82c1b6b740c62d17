package io.cpbench.topology.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import io.cpbench.topology.net.EmulatedLinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Proves the emulated delay with echoes across the emulator: three echo servers stand in for members 0-2, each
 * behind its proxy. A round trip that involves the slow member is longer by the delay, whichever side opened the
 * connection; a round trip between normal members is not.
 *
 * <p>No bound here is a timing of this machine. A busy machine only adds time to a round trip, never removes it, so
 * each link is judged by the fastest of its round trips: a link that pays the delay has none faster than the delay,
 * a link that pays it twice none faster than twice the delay, and a link that does not pay it has (almost all of
 * its 21 round trips are well under a millisecond on loopback) one faster than the delay.
 */
class NetworkEmulatorTest {

    static final Duration DELAY = Duration.ofMillis(10);
    static final double DELAY_MS = DELAY.toNanos() / 1e6;
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    final List<ServerSocket> echoServers = new ArrayList<>();
    final List<Socket> sockets = new ArrayList<>();
    NetworkEmulator emulator;
    List<NetworkEmulator.Endpoint> endpoints;

    @BeforeEach
    void start() throws IOException {
        endpoints = new ArrayList<>();
        for (int member = 0; member < 3; member++) {
            ServerSocket echo = new ServerSocket(0, 50, LOOPBACK);
            echoServers.add(echo);
            Thread t = new Thread(() -> serveEcho(echo));
            t.setDaemon(true);
            t.start();
            // Below the kernel's ephemeral range, so no socket opened meanwhile can take them.
            int listen = freePortFrom(21_000 + (int) (ProcessHandle.current().pid() % 100) * 20 + member);
            int outbound = 26_000 + member * 100 + (int) (ProcessHandle.current().pid() % 20) * 300;
            endpoints.add(new NetworkEmulator.Endpoint(member, listen, echo.getLocalPort(), outbound, outbound + 19));
        }
        emulator = NetworkEmulator.start(LOOPBACK.getHostAddress(), endpoints);
    }

    @AfterEach
    void stop() {
        sockets.forEach(NetworkEmulator::closeQuietly);
        if (emulator != null) {
            emulator.close();
        }
        echoServers.forEach(NetworkEmulator::closeQuietly);
    }

    @Test
    void aRoundTripFromAClientToTheSlowMemberIsLongerByTheDelay() throws IOException {
        Socket toSlow = connect(OPENED_BY_CLIENT, 0);
        RoundTrips plain = roundTrips(toSlow);

        emulator.slowDown(0, DELAY);
        RoundTrips slow = roundTrips(toSlow);
        System.out.printf("client <-> slow member: round trip min/median %.3f/%.3f ms in (a), %.3f/%.3f ms in (b)%n",
                plain.min(), plain.median(), slow.min(), slow.median());

        assertNotDelayed(plain);
        assertDelayedOnce(slow);
    }

    @Test
    void connectionsTheSlowMemberOpenedAreDelayedInTheDirectionItSends() throws IOException {
        emulator.slowDown(0, DELAY);

        Socket fromSlow = connect(0, 1);   // member 0 opened it: its requests are late
        Socket toSlow = connect(1, 0);     // member 1 opened it: member 0's replies are late

        assertDelayedOnce(roundTrips(fromSlow));
        assertDelayedOnce(roundTrips(toSlow));
    }

    @Test
    void roundTripsBetweenNormalMembersAndClientsAreNotDelayed() throws IOException {
        emulator.slowDown(0, DELAY);

        assertNotDelayed(roundTrips(connect(1, 2)));
        assertNotDelayed(roundTrips(connect(2, 1)));
        assertNotDelayed(roundTrips(connect(OPENED_BY_CLIENT, 1)));
    }

    @Test
    void switchingTakesEffectOnOpenConnections() throws IOException {
        Socket toMember1 = connect(OPENED_BY_CLIENT, 1);
        Socket toMember0 = connect(OPENED_BY_CLIENT, 0);

        emulator.slowDown(1, DELAY);
        assertDelayedOnce(roundTrips(toMember1));
        assertNotDelayed(roundTrips(toMember0));

        emulator.slowDown(0, DELAY);
        assertNotDelayed(roundTrips(toMember1));
        assertDelayedOnce(roundTrips(toMember0));

        emulator.clear();
        assertNotDelayed(roundTrips(toMember0));
        assertThat(emulator.slowMember()).isEmpty();
    }

    @Test
    void bulkDataArrivesWholeAndInOrderThroughADelayedPipe() throws IOException {
        emulator.slowDown(0, DELAY);
        Socket socket = connect(OPENED_BY_CLIENT, 0);
        byte[] sent = new byte[1 << 20];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = (byte) (i * 31 + (i >> 8));
        }
        Thread writer = new Thread(() -> {
            try {
                socket.getOutputStream().write(sent);
            } catch (IOException ignored) {
                // The assertion below fails instead.
            }
        });
        writer.start();

        byte[] received = socket.getInputStream().readNBytes(sent.length);

        assertThat(Arrays.equals(sent, received)).isTrue();
    }

    @Test
    void bytesFromClientsAreCountedPerMemberAndMembersOwnTrafficIsNot() throws IOException {
        roundTrips(connect(OPENED_BY_CLIENT, 2)); // 24 one-byte round trips
        roundTrips(connect(0, 2));                // member traffic: not a client's

        assertThat(emulator.bytesFromClients()).containsEntry(0, 0L).containsEntry(1, 0L).containsEntry(2, 24L);
    }

    @Test
    void aConnectionClosedByItsOpenerIsDroppedByTheProxy() throws Exception {
        Socket socket = connect(OPENED_BY_CLIENT, 1);
        roundTrips(socket);
        assertThat(emulator.openConnections()).isEqualTo(1);

        socket.close();

        org.awaitility.Awaitility.await("the proxy drops the closed connection").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20)).until(() -> emulator.openConnections() == 0);
    }

    @Test
    void originIsTheMemberWhoseOutboundRangeHoldsTheSourcePort() {
        NetworkEmulator.Endpoint member2 = endpoints.get(2);

        assertThat(emulator.originOf(member2.outboundFrom())).isEqualTo(2);
        assertThat(emulator.originOf(member2.outboundTo())).isEqualTo(2);
        assertThat(emulator.originOf(member2.outboundTo() + 1000)).isEqualTo(NetworkEmulator.OUTSIDE);
    }

    @Test
    void withOnlyOneMembersLinksProxiedOnlyThatMemberCanBeSlowedAndNothingCutOff() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(EmulatedLinks.proxyAddressUsable(), "127.0.0.2 cannot be bound here");
        List<NetworkEmulator.Endpoint> onProxyAddress = endpoints.stream().map(e -> new NetworkEmulator.Endpoint(e.member(),
                e.listenPort(), e.targetPort(), e.outboundFrom(), e.outboundTo(), EmulatedLinks.PROXY_ADDRESS, null)).toList();
        try (NetworkEmulator lean = NetworkEmulator.start(LOOPBACK.getHostAddress(), onProxyAddress, null,
                EmulatedLinks.slowMember(0))) {
            lean.slowDown(0, DELAY);

            // Member 0's own link, opened by it to member 1 at the proxy address: its requests are late.
            Socket fromSlow = connect(0, 1, InetAddress.getByName(EmulatedLinks.PROXY_ADDRESS));
            assertDelayedOnce(roundTrips(fromSlow));
            assertThat(lean.memberLinks()).containsExactly(List.of(0, 1));
            assertThat(lean.method()).isEqualTo("user-space TCP proxy per member, for member-0's links only");
            assertThatThrownBy(() -> lean.slowDown(1, DELAY)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("only member 0 can be slowed down");
            assertThatThrownBy(() -> lean.isolate(Set.of(1), true, true)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("--network emulated-all");
        }
    }

    static final int OPENED_BY_CLIENT = -1;

    /** A connection to {@code target}'s proxy, from {@code opener}'s outbound range (or any port for a client). */
    private Socket connect(int opener, int target) throws IOException {
        return connect(opener, target, LOOPBACK);
    }

    /** As {@link #connect(int, int)}, to the proxy's port on {@code proxyAddress}. */
    private Socket connect(int opener, int target, InetAddress proxyAddress) throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setReuseAddress(true);
        if (opener != OPENED_BY_CLIENT) {
            NetworkEmulator.Endpoint own = endpoints.get(opener);
            IOException last = null;
            for (int port = own.outboundFrom(); port <= own.outboundTo() && !socket.isBound(); port++) {
                try {
                    socket.bind(new InetSocketAddress(LOOPBACK, port));
                } catch (IOException e) {
                    last = e;
                }
            }
            if (!socket.isBound()) {
                throw last;
            }
        }
        socket.connect(new InetSocketAddress(proxyAddress, endpoints.get(target).listenPort()), 5_000);
        socket.setSoTimeout(5_000);
        sockets.add(socket);
        return socket;
    }

    /** The fastest and the median of a link's round trips, in ms. */
    record RoundTrips(double min, double median) {
    }

    /** The link pays the delay, once: no round trip is faster than the delay, and one is faster than twice it. */
    private static void assertDelayedOnce(RoundTrips link) {
        assertThat(link.min()).as("fastest round trip, ms (median %.3f)", link.median())
                .isGreaterThanOrEqualTo(DELAY_MS).isLessThan(2 * DELAY_MS);
    }

    /** The link does not pay the delay: a round trip faster than the delay (a delayed link has none). */
    private static void assertNotDelayed(RoundTrips link) {
        assertThat(link.min()).as("fastest round trip, ms (median %.3f)", link.median()).isLessThan(DELAY_MS);
    }

    private static RoundTrips roundTrips(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        int samples = 21;
        double[] millis = new double[samples];
        for (int i = -3; i < samples; i++) { // three unmeasured round trips first
            long start = System.nanoTime();
            out.write(i & 0x7f);
            out.flush();
            assertThat(in.read()).isEqualTo(i & 0x7f);
            if (i >= 0) {
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        Arrays.sort(millis);
        return new RoundTrips(millis[0], millis[samples / 2]);
    }

    private static void serveEcho(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                Thread t = new Thread(() -> {
                    try (s) {
                        s.getInputStream().transferTo(s.getOutputStream());
                    } catch (IOException ignored) {
                        // Connection closed.
                    }
                });
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static int freePortFrom(int first) throws IOException {
        for (int port = first; port < 32_000; port += 7) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(LOOPBACK, port));
                return port;
            } catch (IOException inUse) {
                // try the next one
            }
        }
        throw new IOException("no free port from " + first);
    }
}
