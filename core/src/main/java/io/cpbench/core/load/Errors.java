package io.cpbench.core.load;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How failed ops are named: by exception type, with the cause's type when there is one. */
final class Errors {

    private Errors() {
    }

    static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** {@code OperationTimeoutException}, {@code HazelcastException(CannotReplicateException)}. */
    static String type(Throwable e) {
        Throwable t = unwrap(e);
        Throwable cause = t.getCause();
        return cause == null || cause == t ? t.getClass().getSimpleName()
                : t.getClass().getSimpleName() + "(" + cause.getClass().getSimpleName() + ")";
    }

    /** The exception's type and the first line of its message: how a failure is told in one line. */
    static String describe(Throwable e) {
        Throwable t = unwrap(e);
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst().orElse(""));
    }
}
