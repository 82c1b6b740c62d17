package io.cpbench.topology;

import org.testcontainers.containers.output.OutputFrame;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/** Appends a container's output to its member log, as the local topology's member logs. */
final class ContainerLog implements Consumer<OutputFrame>, AutoCloseable {
    private final Path file;
    private OutputStream out;

    ContainerLog(Path file) {
        this.file = file;
    }

    @Override
    public synchronized void accept(OutputFrame frame) {
        byte[] bytes = frame.getBytes();
        if (bytes == null) {
            return;
        }
        try {
            if (out == null) {
                out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            out.write(bytes);
            out.flush();
        } catch (IOException ignored) {
            // A log line lost is not a reason to stop a member.
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException ignored) {
            // Closing a log.
        }
    }
}
