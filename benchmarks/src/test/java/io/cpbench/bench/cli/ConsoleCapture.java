package io.cpbench.bench.cli;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What an in-process command prints, for a test of its output: standard output and error are captured before each
 * test and restored after it. Use as a field: {@code @RegisterExtension final ConsoleCapture console = new ConsoleCapture();}
 */
final class ConsoleCapture implements BeforeEachCallback, AfterEachCallback {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @Override
    public void beforeEach(ExtensionContext context) {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    /** Forgets what was printed so far (before the next command). */
    void reset() {
        out.reset();
        err.reset();
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
