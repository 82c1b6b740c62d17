package io.cpbench.core.history;

/** A history file that cannot be read: says which file and line, and what was wrong. */
public final class HistoryFormatException extends RuntimeException {
    public HistoryFormatException(String message) {
        super(message);
    }
}
