package io.cpbench.topology;

/** A cluster could not be started, reached or settled. The message is meant for the user, in one line. */
public class TopologyException extends RuntimeException {

    public TopologyException(String message) {
        super(message);
    }

    public TopologyException(String message, Throwable cause) {
        super(message, cause);
    }
}
