package io.cpbench.bench.history;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

import static io.cpbench.bench.history.Sql.firstLine;

/**
 * Reaching a history store: its JDBC URL from a path or a URL, the connection with its timeouts (SQLite in WAL mode
 * with a busy timeout and immediate transactions; PostgreSQL's password from the environment, never the URL), and
 * the schema checked and, when older than this build's, migrated by Flyway.
 */
final class StoreOpening {

    private StoreOpening() {
    }

    /** An open connection to a store whose schema is this build's. */
    record Opened(Connection connection, String shown, boolean sqlite) {
    }

    /** See {@link HistoryStore#open}. */
    static Opened open(String where) {
        String url = url(where);
        String shown = shown(where);
        boolean sqlite = url.startsWith("jdbc:sqlite:");
        if (url.toLowerCase(java.util.Locale.ROOT).contains("password=")) {
            throw new IllegalArgumentException("history store " + shown + ": a password in the URL would show on the"
                    + " command line; give it in PGPASSWORD or ~/.pgpass instead");
        }
        Properties props = properties(url, shown, sqlite);
        Connection c;
        try {
            DriverManager.setLoginTimeout(HistoryStore.CONNECT_TIMEOUT_S);
            c = DriverManager.getConnection(url, props);
        } catch (SQLException e) {
            throw new IllegalArgumentException("history store " + shown + ": cannot connect: " + firstLine(e.getMessage()));
        }
        try {
            Integer version = schemaVersion(c);
            if (version != null && version > HistoryStore.SCHEMA_VERSION) {
                throw new HistoryStore.TooNew("history store " + shown + " has schema version " + version + ", newer than this cp-bench"
                        + " knows (" + HistoryStore.SCHEMA_VERSION + "): use a newer cp-bench with it");
            }
            if (version == null || version < HistoryStore.SCHEMA_VERSION) {
                migrate(url, props, shown); // Flyway only when there is something to do: it costs a run ~0.5 s to load
            }
            return new Opened(c, shown, sqlite);
        } catch (SQLException | RuntimeException e) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // it is being given up
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalArgumentException("history store " + shown + ": " + firstLine(e.getMessage()));
        }
    }

    /** The connection's settings: SQLite's journal, lock wait and transactions (its directory made); the timeouts. */
    private static Properties properties(String url, String shown, boolean sqlite) {
        Properties props = new Properties();
        if (sqlite) {
            Path file = Path.of(url.substring("jdbc:sqlite:".length()).replaceFirst("\\?.*", ""));
            try {
                if (file.getParent() != null) {
                    Files.createDirectories(file.getParent());
                }
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("history store " + shown + ": cannot create its directory: " + e.getMessage());
            }
            props.setProperty("journal_mode", "WAL");
            props.setProperty("busy_timeout", Integer.toString(HistoryStore.BUSY_TIMEOUT_MS));
            props.setProperty("foreign_keys", "true");
            // a transaction takes the write lock as it begins: one that read first and then writes could not wait for
            // another writer (SQLITE_BUSY at once, whatever the busy timeout)
            props.setProperty("transaction_mode", "IMMEDIATE");
        } else {
            props.setProperty("connectTimeout", Integer.toString(HistoryStore.CONNECT_TIMEOUT_S));
            props.setProperty("socketTimeout", Integer.toString(HistoryStore.STATEMENT_TIMEOUT_S));
            props.setProperty("loginTimeout", Integer.toString(HistoryStore.CONNECT_TIMEOUT_S));
            String password = System.getenv("PGPASSWORD");
            if (password != null) {
                props.setProperty("password", password);
            }
        }
        return props;
    }

    /**
     * The highest schema version Flyway has applied, or null when there is no schema yet.
     *
     * @throws SQLException when the database cannot be read at all (a corrupt file, say)
     */
    private static Integer schemaVersion(Connection c) throws SQLException {
        boolean exists;
        try (ResultSet tables = c.getMetaData().getTables(null, null, "flyway_schema_history", null)) {
            exists = tables.next();
        }
        if (!exists) {
            return null;
        }
        try (PreparedStatement s = c.prepareStatement("SELECT version FROM flyway_schema_history WHERE success = "
                + (c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("sqlite") ? "1" : "true")
                + " AND version IS NOT NULL")) {
            s.setQueryTimeout(HistoryStore.STATEMENT_TIMEOUT_S);
            int highest = 0;
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String v = rs.getString(1);
                    try {
                        highest = Math.max(highest, Integer.parseInt(v.replaceFirst("\\..*", "")));
                    } catch (NumberFormatException e) {
                        // not one of ours
                    }
                }
            }
            return highest == 0 ? null : highest;
        }
    }

    private static void migrate(String url, Properties props, String shown) {
        quietFlyway();
        // the timeouts in the URL: Flyway opens connections of its own
        String timed = url.startsWith("jdbc:postgresql:") ? url + (url.contains("?") ? "&" : "?") + "connectTimeout="
                + HistoryStore.CONNECT_TIMEOUT_S + "&socketTimeout=" + HistoryStore.STATEMENT_TIMEOUT_S + "&loginTimeout=" + HistoryStore.CONNECT_TIMEOUT_S : url;
        Flyway flyway = Flyway.configure(HistoryStore.class.getClassLoader())
                .dataSource(timed, props.getProperty("user"), props.getProperty("password"))
                .locations("classpath:io/cpbench/bench/history/migration")
                .connectRetries(0)
                .load();
        try {
            flyway.migrate();
        } catch (FlywayException e) {
            throw new IllegalArgumentException("history store " + shown + ": " + firstLine(e.getMessage()));
        }
    }

    /**
     * Held as long as this class is: java.util.logging keeps a logger by a weak reference only, so a level set on one
     * that nothing holds is lost when it is collected, and Flyway's loggers, made after that, print INFO again (seen:
     * eight INFO lines on the first open of a store by {@code history import}, whose reading had run the collector).
     */
    private static final java.util.logging.Logger FLYWAY_LOGGING = java.util.logging.Logger.getLogger("org.flywaydb");

    /** Flyway's INFO lines are not for a benchmark's console; its warnings and errors still are. */
    static void quietFlyway() {
        FLYWAY_LOGGING.setLevel(java.util.logging.Level.WARNING);
    }

    /** A path's JDBC URL; a JDBC URL as it is. */
    static String url(String where) {
        if (where.startsWith("jdbc:")) {
            return where;
        }
        return "jdbc:sqlite:" + Path.of(where).toAbsolutePath().normalize();
    }

    /** Whether there is a store at {@code where} to read: a SQLite file that exists, or any server's URL. */
    static boolean present(String where) {
        String url = url(where);
        return !url.startsWith("jdbc:sqlite:") || Files.isRegularFile(Path.of(url.substring("jdbc:sqlite:".length())
                .replaceFirst("\\?.*", "")));
    }

    /** The store as shown in lines: its path, or the URL without its query (which may name a user). */
    static String shown(String where) {
        return where.startsWith("jdbc:") ? where.replaceFirst("\\?.*", "") : where;
    }
}
