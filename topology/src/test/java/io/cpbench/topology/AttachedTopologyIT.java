package io.cpbench.topology;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AttachedTopologyIT {

    @Test
    void anUnreachableClusterIsAClearErrorWithinTheConnectTimeout() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> TopologyKind.attach("dev", List.of("127.0.0.1:1"), Duration.ofSeconds(3),
                Duration.ofSeconds(1), Duration.ofSeconds(10)))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("cannot reach cluster 'dev'");
        // Bounded: the connect timeout plus Hazelcast's own shutdown, far below its default of retrying forever.
        org.assertj.core.api.Assertions.assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void aMalformedAddressIsRejectedBeforeAnyConnection() {
        assertThatThrownBy(() -> TopologyKind.attach("dev", List.of("no-port-here"), Duration.ofSeconds(3),
                Duration.ofSeconds(1), Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bad member address 'no-port-here'; expected host:port with a port 1-65535, such as 127.0.0.1:5701");
        assertThatThrownBy(() -> TopologyKind.checkAddress("127.0.0.1:99999")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TopologyKind.checkAddress("127.0.0.1:0")).isInstanceOf(IllegalArgumentException.class);
        TopologyKind.checkAddress("127.0.0.1:65535");
    }
}
