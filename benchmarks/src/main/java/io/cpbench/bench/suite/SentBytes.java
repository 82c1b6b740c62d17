package io.cpbench.bench.suite;

import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.client.impl.connection.ClientConnection;
import com.hazelcast.client.impl.connection.tcp.TcpClientConnection;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.networking.Channel;
import com.hazelcast.internal.nio.ConnectionListener;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bytes one client has sent to each member, counted by the client's own connections (Hazelcast's channel
 * counters), whatever the network path: the evidence of which members served a run
 * ({@code networkPath.clientBytesToMember}). Connections that close count too, with what they had sent by then.
 * Reads Hazelcast 5.4 internals ({@code HazelcastClientProxy.client}, {@code TcpClientConnection}'s channel); where
 * they cannot be read, {@link #attach} returns null.
 */
final class SentBytes implements ConnectionListener<ClientConnection> {

    private static final Field CHANNEL = channelField();

    private final HazelcastClientProxy client;
    /** By member address ({@code host:port}, as the client knows it): bytes sent on connections since closed. */
    private final Map<String, Long> closed = new ConcurrentHashMap<>();

    private SentBytes(HazelcastClientProxy client) {
        this.client = client;
    }

    /** Starts counting {@code instance}'s connections, or null where they cannot be read. */
    static SentBytes attach(HazelcastInstance instance) {
        if (CHANNEL == null || !(instance instanceof HazelcastClientProxy proxy) || proxy.client == null) {
            return null;
        }
        SentBytes counter = new SentBytes(proxy);
        proxy.client.getConnectionManager().addConnectionListener(counter);
        return counter;
    }

    /** Bytes sent so far, by member address: open connections' counters plus what closed ones had sent. */
    Map<String, Long> byAddress() {
        Map<String, Long> bytes = new TreeMap<>(closed);
        var impl = client.client;
        if (impl != null) {
            for (ClientConnection connection : impl.getConnectionManager().getActiveConnections()) {
                String address = addressOf(connection);
                long sent = sent(connection);
                if (address != null && sent >= 0) {
                    bytes.merge(address, sent, Long::sum);
                }
            }
        }
        return bytes;
    }

    @Override
    public void connectionAdded(ClientConnection connection) {
        // Counted while open by byAddress().
    }

    @Override
    public void connectionRemoved(ClientConnection connection) {
        String address = addressOf(connection);
        long sent = sent(connection);
        if (address != null && sent > 0) {
            closed.merge(address, sent, Long::sum);
        }
    }

    private static String addressOf(ClientConnection connection) {
        var address = connection.getRemoteAddress();
        return address == null ? null : address.getHost() + ":" + address.getPort();
    }

    /** What the connection's channel has written, or -1 where it cannot be read. */
    static long sent(ClientConnection connection) {
        if (!(connection instanceof TcpClientConnection)) {
            return -1;
        }
        try {
            Channel channel = (Channel) CHANNEL.get(connection);
            return channel == null ? -1 : channel.bytesWritten();
        } catch (IllegalAccessException | RuntimeException e) {
            return -1;
        }
    }

    private static Field channelField() {
        try {
            Field field = TcpClientConnection.class.getDeclaredField("channel");
            field.setAccessible(true);
            return Channel.class.isAssignableFrom(field.getType()) ? field : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
