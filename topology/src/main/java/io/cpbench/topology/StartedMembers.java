package io.cpbench.topology;

/**
 * Member processes this JVM started (a {@link Topology}, a {@link StockCluster}): closing stops them, and so does
 * the JVM's end (Ctrl-C), unless a caller that must finish work first (write a result, then stop the members) takes
 * that over with {@link #takeOverShutdown()} and then closes them on its own shutdown path.
 */
public interface StartedMembers extends AutoCloseable {

    /** The caller stops the members on its own shutdown path: the JVM's end no longer does it by itself. */
    void takeOverShutdown();

    /** Stops every member; never throws. */
    @Override
    void close();
}
