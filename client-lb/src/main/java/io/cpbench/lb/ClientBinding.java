package io.cpbench.lb;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.LoadBalancer;
import com.hazelcast.client.impl.clientside.HazelcastClientInstanceImpl;
import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.client.impl.connection.ClientConnection;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Finds the client a balancer belongs to. Hazelcast hands a balancer only the cluster view
 * ({@code LoadBalancer.init(Cluster, ClientConfig)}), not the client, and a balancer configured by class name has
 * no other way to reach it. Without the client a balancer cannot tell which members are connected (docs/hazelcast-facts.md,
 * fact 3) nor send probes. So a daemon thread looks through this JVM's clients for the one whose load balancer is
 * the owner; the client registers itself right after {@code newHazelcastClient} has built it, so this takes
 * milliseconds. Uses Hazelcast 5.4 internals ({@code HazelcastClientProxy.client}).
 */
final class ClientBinding {

    private static final long POLL_MILLIS = 5;

    private final LoadBalancer owner;
    private final CountDownLatch bound = new CountDownLatch(1);
    private volatile HazelcastClientInstanceImpl client;
    private volatile Predicate<Member> connected;
    private volatile Thread initThread;
    private volatile boolean stopped;
    private Consumer<HazelcastClientInstanceImpl> onBind = c -> { };

    ClientBinding(LoadBalancer owner) {
        this.owner = owner;
    }

    /** Starts looking for the owner's client, for at most {@code timeout}; {@code onBind} runs once it is found. */
    void start(Duration timeout, Consumer<HazelcastClientInstanceImpl> onBind) {
        this.onBind = onBind;
        this.initThread = Thread.currentThread();
        Thread finder = new Thread(() -> find(timeout.toNanos()), "cpbench-lb-bind");
        finder.setDaemon(true);
        finder.start();
    }

    private void find(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!stopped && connected == null && System.nanoTime() < deadline) {
            try {
                for (HazelcastInstance instance : HazelcastClient.getAllHazelcastClients()) {
                    if (instance instanceof HazelcastClientProxy proxy) {
                        HazelcastClientInstanceImpl candidate = proxy.client;
                        if (candidate != null && candidate.getLoadBalancer() == owner) {
                            bind(candidate);
                            return;
                        }
                    }
                }
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // A client in this JVM failed to start (its registry entry throws): look again.
            }
        }
    }

    /** Binds to {@code candidate}; false when already bound to another client. */
    synchronized boolean bind(HazelcastClientInstanceImpl candidate) {
        if (connected != null) {
            return client == candidate;
        }
        client = candidate;
        connected = member -> {
            ClientConnection connection = candidate.getConnectionManager().getConnection(member.getUuid());
            return connection != null && connection.isAlive();
        };
        onBind.accept(candidate);
        bound.countDown();
        return true;
    }

    /** For unit tests: connections as {@code connected} says, with no client. */
    synchronized void bindForTest(Predicate<Member> connectedCheck) {
        connected = connectedCheck;
        bound.countDown();
    }

    /** The connection check, or null while unbound. */
    Predicate<Member> connected() {
        return connected;
    }

    /** The connection check, waiting up to {@code wait} for the binding; null if it did not come. */
    Predicate<Member> awaitConnected(Duration wait) {
        Predicate<Member> check = connected;
        if (check != null || Thread.currentThread() == initThread) {
            // The thread building the client must not wait: the binding needs that build to finish.
            return check;
        }
        try {
            bound.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return connected;
    }

    boolean onInitThread() {
        return Thread.currentThread() == initThread;
    }

    HazelcastClientInstanceImpl client() {
        return client;
    }

    void stop() {
        stopped = true;
    }

    /** Whether {@link #stop()} was called (the client is shutting down). */
    boolean stopped() {
        return stopped;
    }
}
