package io.cpbench.bench.cli;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The socket reader the no-wildcard checks rely on, on sockets this JVM opens: one on loopback, one on every interface. */
class ListeningSocketsTest {

    @Test
    void aLoopbackListenerAndAWildcardOneAreToldApart() throws Exception {
        try (ServerSocket loopback = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"));
             ServerSocket wildcard = new ServerSocket()) {
            wildcard.bind(new InetSocketAddress(0));
            List<ListeningSockets.Listener> mine = ListeningSockets.of(List.of(ProcessHandle.current()));

            assertThat(mine).filteredOn(l -> l.address().endsWith(":" + loopback.getLocalPort()))
                    .singleElement().satisfies(l -> {
                        assertThat(l.address()).isEqualTo("127.0.0.1:" + loopback.getLocalPort());
                        assertThat(l.wildcard()).isFalse();
                        assertThat(l.pid()).isEqualTo(ProcessHandle.current().pid());
                    });
            assertThat(mine).filteredOn(l -> l.address().endsWith(":" + wildcard.getLocalPort()))
                    .singleElement().satisfies(l -> assertThat(l.wildcard()).as(l.address()).isTrue());
        }
    }

    @Test
    void kernelAddressesAreDecoded() {
        assertThat(ListeningSockets.address("0100007F:1645", false)).isEqualTo("127.0.0.1:5701");
        assertThat(ListeningSockets.address("00000000:1645", false)).isEqualTo("0.0.0.0:5701");
        assertThat(ListeningSockets.address("00000000000000000000000000000000:1645", true)).isEqualTo("[::]:5701");
        assertThat(ListeningSockets.address("0000000000000000FFFF00000100007F:1645", true)).isEqualTo("127.0.0.1:5701");
    }
}
