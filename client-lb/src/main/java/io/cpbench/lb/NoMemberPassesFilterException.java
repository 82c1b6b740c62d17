package io.cpbench.lb;

/**
 * Thrown by a balancer's {@code next()} when no member of the cluster passes its filter. The call fails at once
 * (it is not retried): a filter that excludes every member is a configuration error, and sending the call to an
 * excluded member instead would hide it.
 */
public class NoMemberPassesFilterException extends IllegalStateException {
    public NoMemberPassesFilterException(String message) {
        super(message);
    }
}
