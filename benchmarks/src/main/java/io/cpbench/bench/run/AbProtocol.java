package io.cpbench.bench.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.run.Driver;
import io.cpbench.core.load.LoadResult;
import io.cpbench.core.load.LoadSpec;
import io.cpbench.core.status.Status;
import io.cpbench.core.workload.Workload;
import io.cpbench.topology.ChildJvmOptions;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * How {@code cpbench ab} talks to its two client processes, one per build: both sides of the protocol, the worker's
 * ({@link #serve}) and the coordinator's ({@link Worker}).
 *
 * <p>A line each way: the worker prints {@code @ab ready {json}} once its client is connected (with
 * {@code protocol}, this class's {@link #VERSION}); then, for each {@code run MILLIS} it reads, it runs the op for
 * that long and prints {@code @ab slice {json}} (ops, errors, seconds, p50 and p99 in µs, the first error). {@code
 * quit} or the end of its input (the coordinator died) ends it. Everything else it prints (the CLI's lines,
 * Hazelcast's warnings on stderr) is not part of the protocol. Builds with the same {@link #VERSION} work together,
 * so {@code ab} can compare this build with an older one.
 */
public final class AbProtocol {

    /** Version of the line protocol; {@code ab} refuses a worker that speaks another. */
    public static final int VERSION = 1;
    /** The hidden subcommand that runs a worker. */
    public static final String COMMAND = "ab-worker";
    static final String PREFIX = "@ab ";
    /** Reads what a worker sends into the records below, and nothing else: a field a later build adds is skipped. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    /**
     * The time box past a slice's length, which a plan needs. A slice ends at its length; ops still in flight then get
     * Driver's 30 s grace, so a slice answers within length + 30 s, inside the coordinator's wait of length + 60 s.
     */
    private static final Duration SLICE_OVERRUN = Duration.ofSeconds(20);

    private AbProtocol() {
    }

    /** One pair of slices: BASE's and NEW's, and which ran first. */
    public record Pair(int index, int fork, boolean baseFirst, Slice base, Slice next) {
    }

    /**
     * What a worker says once its client is connected ({@code @ab ready}).
     *
     * @param protocol {@link #VERSION} of the worker's build
     * @param version  the worker's cp-bench version
     * @param planted  the planted slowdown it runs with (0: none), for tests of ab itself
     * @param pid      its process id
     * @param members  the Hazelcast release the members told its client they run; null from a build that does not say
     */
    public record Ready(int protocol, String version, double planted, long pid, String members) {
    }

    /** What a worker measured in one slice ({@code @ab slice}); p50 and p99 in µs; the first error, or null. */
    public record Slice(long ops, long errors, double seconds, double p50, double p99, String error) {
        public double opsPerSecond() {
            return ops / seconds;
        }
    }

    /**
     * The worker's side: says {@code ready}, then runs {@code op} on {@code threads} threads for each slice asked,
     * until {@code quit} or the end of {@code in}.
     */
    public static void serve(Workload op, int threads, Ready ready, BufferedReader in, PrintStream out)
            throws IOException {
        send(out, "ready", ready);
        String line;
        while ((line = in.readLine()) != null && !line.equals("quit")) {
            if (line.startsWith("run ")) {
                send(out, "slice", slice(op, threads, Long.parseLong(line.substring(4).trim())));
            }
        }
    }

    /**
     * The op on every thread, back to back, for {@code millis}, on the load engine (through {@link Driver}, as a
     * scenario run measures); what it did.
     */
    private static Slice slice(Workload op, int threads, long millis) {
        LoadSpec plan = LoadSpec.scenario().warmupOps(0).duration(Duration.ofMillis(millis)).threads(threads)
                .timebox(Duration.ofMillis(millis).plus(SLICE_OVERRUN)).build();
        LoadResult m = new Driver(plan).run(op, null, null);
        Histogram all = m.latencyHistogram();
        return new Slice(m.ops(), m.errors(), m.seconds(), all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(50),
                all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(99),
                m.caveats().firstError() != null ? m.caveats().firstError() : m.outcome() == Status.FAIL ? m.reason() : null);
    }

    /** A line's body as {@code type}; fields a later build adds are skipped, missing ones are null or 0. */
    static <T extends Record> T read(String body, Class<T> type) throws IOException {
        return JSON.readValue(body, type);
    }

    private static void send(PrintStream out, String kind, Record body) throws IOException {
        out.println(PREFIX + kind + " " + JSON.writeValueAsString(body));
        out.flush();
    }

    /** One side's client process, and the protocol lines it printed. */
    public static final class Worker {
        public final String side;
        private final Process process;
        private final BufferedWriter in;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Path log;

        private Worker(String side, Process process, Path log) {
            this.side = side;
            this.process = process;
            this.log = log;
            this.in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            Thread reader = new Thread(this::read, "cpbench-ab-" + side);
            reader.setDaemon(true);
            reader.start();
        }

        /**
         * Starts {@code command ab-worker attach...}; its stderr and non-protocol lines go to {@code log}.
         */
        public static Worker start(String side, List<String> command, List<String> attach, Path log) {
            List<String> all = new ArrayList<>(command);
            all.add(COMMAND);
            all.addAll(attach);
            try {
                Files.writeString(log, String.join(" ", all) + "\n");
                ProcessBuilder pb = new ProcessBuilder(all).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
                return new Worker(side, pb.start(), log);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + side + "'s client process: " + e.getMessage(), e);
            }
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith(PREFIX)) {
                        lines.add(line.substring(PREFIX.length()));
                    } else {
                        Files.writeString(log, line + "\n", StandardOpenOption.APPEND);
                    }
                }
            } catch (IOException ignored) {
                // the process ended; await() says so
            }
        }

        /** The body of the next line of {@code kind}, read as {@code type}, waiting until {@code byNanos} at most. */
        public <T extends Record> T await(String kind, Class<T> type, long byNanos) {
            try {
                while (true) {
                    String line = lines.poll(200, TimeUnit.MILLISECONDS);
                    if (line != null) {
                        if (line.startsWith(kind + " ")) {
                            return AbProtocol.read(line.substring(kind.length() + 1), type);
                        }
                        continue;
                    }
                    if (!process.isAlive() && lines.isEmpty()) {
                        throw new IllegalStateException(side + "'s client process ended (exit " + process.exitValue()
                                + "): " + lastLines());
                    }
                    if (System.nanoTime() > byNanos) {
                        throw new IllegalStateException(side + "'s client process did not answer in time; see " + log);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(side + ": interrupted");
            } catch (IOException e) {
                throw new IllegalStateException(side + "'s client process sent a malformed line: " + e.getMessage());
            }
        }

        public Slice slice(Duration length) {
            try {
                in.write("run " + length.toMillis() + "\n");
                in.flush();
            } catch (IOException e) {
                throw new IllegalStateException(side + "'s client process is gone: " + lastLines());
            }
            return await("slice", Slice.class, System.nanoTime() + length.toNanos() + TimeUnit.SECONDS.toNanos(60));
        }

        private String lastLines() {
            try {
                List<String> all = Files.readAllLines(log);
                List<String> cpbench = all.stream().filter(l -> l.startsWith("cpbench")).toList();
                List<String> tail = cpbench.isEmpty() ? all.subList(Math.max(0, all.size() - 3), all.size()) : cpbench;
                return String.join(" / ", tail) + " (log: " + log + ")";
            } catch (IOException e) {
                return "see " + log;
            }
        }

        /** Asks it to quit, then ends it and anything it started. */
        public void close() {
            try {
                in.write("quit\n");
                in.flush();
                in.close();
            } catch (IOException ignored) {
                // already gone
            }
            try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The command that starts a worker of {@code jar} (null: this cp-bench), its JVM arguments first.
     *
     * @param option how messages name the jar (--base, --new)
     * @param main   cp-bench's main class, which this process runs
     * @param worker the worker command's class, which a jar must hold to take part
     */
    public static List<String> workerCommand(Path jar, String option, List<String> jvmArgs, Class<?> main,
                                             Class<?> worker) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ChildJvmOptions.fromEnvironment());
        command.addAll(jvmArgs);
        command.addAll(List.of("--add-modules", "java.se"));
        if (jar != null) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException(option + " " + jar + ": no such file (a cp-bench jar, such as"
                        + " benchmarks/target/cpbench.jar)");
            }
            if (!holds(jar, option, worker)) {
                throw new IllegalArgumentException(option + " " + jar + " is not a cp-bench jar with 'ab' (it has no "
                        + worker.getName().replace('.', '/') + ".class)");
            }
            command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
            return command;
        }
        try {
            Path self = Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(self)) {
                command.addAll(List.of("-jar", self.toString()));
            } else {
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate this cp-bench: " + e.getMessage(), e);
        }
        return command;
    }

    private static boolean holds(Path jar, String option, Class<?> worker) {
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            return zip.getEntry(worker.getName().replace('.', '/') + ".class") != null;
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + jar + " is not a jar (" + e.getMessage() + ")");
        }
    }
}
