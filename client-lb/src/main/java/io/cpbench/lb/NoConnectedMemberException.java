package io.cpbench.lb;

import com.hazelcast.spi.exception.RetryableHazelcastException;

/**
 * Thrown by a balancer's {@code next()} when members pass its filter but the client holds no connection to any of
 * them yet (it is still connecting, or reconnecting after a failure). Hazelcast retries such a call until the
 * client's invocation timeout ({@code hazelcast.client.invocation.timeout.seconds}, 120 s by default), so the call
 * waits for an allowed member instead of going to another one.
 */
public class NoConnectedMemberException extends RetryableHazelcastException {
    public NoConnectedMemberException(String message) {
        super(message);
    }
}
