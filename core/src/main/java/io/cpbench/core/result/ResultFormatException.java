package io.cpbench.core.result;

/** A result file that cannot be read as one. The message names the file and what is wrong, in one line. */
public class ResultFormatException extends RuntimeException {

    public ResultFormatException(String message) {
        super(message);
    }

    public ResultFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
