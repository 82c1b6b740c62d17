package io.cpbench.bench.history;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

/**
 * The history store's JDBC, kept small and plain (no library: a dozen statements, two databases): statements with a
 * timeout, values bound by type (a null the server types itself), nullable columns read as null, transactions that
 * end by returning to auto-commit (see {@link HistoryStore} for why, with SQLite), a duplicate key recognised in either
 * database's words, and errors as one line naming the store.
 */
final class Sql {

    private final Connection connection;
    private final String shown;
    private final int statementTimeoutSeconds;

    Sql(Connection connection, String shown, int statementTimeoutSeconds) {
        this.connection = connection;
        this.shown = shown;
        this.statementTimeoutSeconds = statementTimeoutSeconds;
    }

    Connection connection() {
        return connection;
    }

    @FunctionalInterface
    interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code work} as one transaction: begun on leaving auto-commit (SQLite: BEGIN IMMEDIATE, which waits up to the
     * busy timeout for another writer), committed on returning to it, rolled back if anything fails.
     */
    <T> T transaction(Work<T> work) throws SQLException {
        boolean committed = false;
        try {
            connection.setAutoCommit(false);
            T result = work.run();
            connection.setAutoCommit(true); // commits; commit() would begin the next transaction at once (see above)
            committed = true;
            return result;
        } finally {
            if (!committed) {
                rollback();
            }
        }
    }

    @FunctionalInterface
    interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    void query(String sql, List<Object> args, RowReader reader) {
        try (PreparedStatement s = prepare(sql)) {
            bind(s, args.toArray());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    reader.read(rs);
                }
            }
        } catch (SQLException e) {
            throw failed("cannot read", e);
        }
    }

    PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement s = connection.prepareStatement(sql);
        s.setQueryTimeout(statementTimeoutSeconds);
        return s;
    }

    static void bind(PreparedStatement s, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v == null) {
                s.setNull(i + 1, Types.NULL); // the server infers the column's type (PostgreSQL refuses a VARCHAR null in a BIGINT)
            } else if (v instanceof Integer n) {
                s.setInt(i + 1, n);
            } else if (v instanceof Long n) {
                s.setLong(i + 1, n);
            } else if (v instanceof Double d) {
                s.setDouble(i + 1, d);
            } else {
                s.setString(i + 1, v.toString());
            }
        }
    }

    static String string(ResultSet rs, int column) throws SQLException {
        return rs.getString(column);
    }

    static Long longValue(ResultSet rs, int column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    static Integer integer(ResultSet rs, int column) throws SQLException {
        int v = rs.getInt(column);
        return rs.wasNull() ? null : v;
    }

    /** SQLite's and PostgreSQL's words for a primary key taken. */
    static boolean isDuplicate(SQLException e) {
        String state = e.getSQLState();
        String message = String.valueOf(e.getMessage());
        return "23505".equals(state) || message.contains("UNIQUE constraint failed") || message.contains("PRIMARY KEY");
    }

    /** Ends a transaction that failed and returns to auto-commit, by statement: rollback() would begin another. */
    private void rollback() {
        try (Statement s = connection.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // no transaction was open (a failed COMMIT ends it), or the connection is gone: the next call says so
        }
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // sqlite-jdbc commits as it returns to auto-commit, and there is nothing left to commit
        }
    }

    IllegalStateException failed(String what, SQLException e) {
        return new IllegalStateException("history store " + shown + ": " + what + ": " + firstLine(e.getMessage()), e);
    }

    static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("").strip();
    }

    void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing a connection that failed: nothing more to do
        }
    }
}
