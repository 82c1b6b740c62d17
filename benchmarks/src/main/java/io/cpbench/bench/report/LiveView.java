package io.cpbench.bench.report;

import io.cpbench.bench.results.HtmlPage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The live view of a run ({@code --live}): an HTTP server on 127.0.0.1 only, serving the report page ({@code /}),
 * which fetches {@code /data.json} once a second (the run directory's report as it stands, plus the last 10
 * minutes of per-second numbers), and Prometheus' text format at {@code /metrics}. It answers only requests whose
 * {@code Host} is 127.0.0.1 or localhost with its port (421 otherwise: a site whose name a browser was made to resolve
 * to 127.0.0.1 cannot read the run). One thread serves; the report of
 * the run directory is rebuilt at most every 2 s, so a page left open costs the run little (see the README for
 * what it measured).
 */
public final class LiveView implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long REBUILD_NANOS = 2_000_000_000L;
    private static final int KEEP_SECONDS = 600;

    private final HttpServer server;
    private final ExecutorService executor;
    private final Path runDir;
    private final String title;
    private final Deque<double[]> samples = new ArrayDeque<>(); // elapsed, op/s, p50, p99
    private volatile Sample last;
    private volatile String state = "starting";
    private ObjectNode cached;
    private long cachedAt;
    private long cachedPrint;
    private final long startNanos = System.nanoTime();

    /** The latest numbers: what is running, and its last interval. */
    record Sample(String what, double elapsedSeconds, double opsPerSecond, long p50Micros, Long p99Micros, long ops,
                  long errors) {
    }

    private LiveView(HttpServer server, ExecutorService executor, Path runDir, String title) {
        this.server = server;
        this.executor = executor;
        this.runDir = runDir;
        this.title = title;
    }

    /**
     * Serves on 127.0.0.1:{@code port} (0: a free port).
     *
     * @throws IllegalArgumentException when the port cannot be had
     */
    public static LiveView start(int port, Path runDir, String title) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--live: port must be 0-65535 (0 picks a free one), was " + port);
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 8);
        } catch (BindException e) {
            throw new IllegalArgumentException("--live: port " + port + " on 127.0.0.1 is in use (give another, or 0 for a free one)");
        } catch (IOException e) {
            throw new IllegalArgumentException("--live: cannot serve on 127.0.0.1:" + port + " (" + e.getMessage() + ")");
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cpbench-live-view");
            t.setDaemon(true);
            return t;
        });
        LiveView view = new LiveView(server, executor, runDir, title);
        server.setExecutor(executor);
        server.createContext("/", view::handle);
        server.start();
        return view;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** One interval's numbers ({@code p99} null when the harness gives none). */
    public void sample(String what, double opsPerSecond, long p50Micros, Long p99Micros, long ops, long errors) {
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        last = new Sample(what, elapsed, opsPerSecond, p50Micros, p99Micros, ops, errors);
        state = "running";
        synchronized (samples) {
            samples.addLast(new double[]{elapsed, opsPerSecond, p50Micros, p99Micros == null ? Double.NaN : p99Micros});
            while (samples.size() > KEEP_SECONDS) {
                samples.removeFirst();
            }
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String host = exchange.getRequestHeaders().getFirst("Host");
            if (!ownHost(host, server.getAddress().getPort())) {
                // DNS rebinding: a page from elsewhere whose name now resolves to 127.0.0.1 must not read the run
                send(exchange, 421, "text/plain", "this live view answers only as " + url() + " (Host: " + host + ")\n");
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "text/plain", "GET only\n");
                return;
            }
            String type;
            String body;
            try {
                switch (path) {
                    case "/", "/index.html" -> { type = "text/html; charset=utf-8"; body = HtmlPage.html(data(), true); }
                    case "/data.json" -> { type = "application/json"; body = JSON.writeValueAsString(data()); }
                    case "/metrics" -> { type = "text/plain; version=0.0.4; charset=utf-8"; body = metrics(); }
                    default -> {
                        send(exchange, 404, "text/plain", "not found: " + path + " (try /, /data.json, /metrics)\n");
                        return;
                    }
                }
            } catch (RuntimeException e) {
                // a report that cannot be built just now (a file half-written) is not the run's problem
                send(exchange, 500, "text/plain", "cannot build the report just now: " + e.getMessage() + "\n");
                return;
            }
            send(exchange, 200, type, body);
        }
    }

    /**
     * The run directory's files (not the members' logs), as sizes and modification times: the report is rebuilt
     * only when this changes, since rebuilding a 13-scenario, 3-round matrix costs 100-200 ms of CPU.
     */
    private long fingerprint() {
        long f = 17;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(runDir, 2)) {
            for (Path p : (Iterable<Path>) files.filter(java.nio.file.Files::isRegularFile)
                    .filter(p -> !runDir.relativize(p).startsWith("members"))::iterator) {
                f = 31 * f + p.hashCode();
                f = 31 * f + java.nio.file.Files.size(p);
                f = 31 * f + java.nio.file.Files.getLastModifiedTime(p).toMillis();
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            return f; // not there yet, or changing under us: try again at the next poll
        }
        return f;
    }

    /**
     * The run directory's report (rebuilt when its files changed, at most every 2 s), with a live section of the
     * per-second numbers.
     */
    synchronized ObjectNode data() {
        long now = System.nanoTime();
        long print = cached == null || now - cachedAt > REBUILD_NANOS ? fingerprint() : cachedPrint;
        if (cached == null || print != cachedPrint) {
            cachedPrint = print;
            ObjectNode fresh = JSON.createObjectNode();
            fresh.put("title", title);
            ArrayNode runs = fresh.putArray("runs");
            try {
                if (ReportModel.isRunDirectory(runDir)) {
                    runs.add(ReportModel.run(runDir));
                }
            } catch (RuntimeException e) {
                if (cached != null) {
                    fresh.set("runs", cached.get("runs")); // keep what was drawn last
                }
            }
            cached = fresh;
            cachedAt = now;
        }
        // a fresh top level over the cached sections (never changed once built): no copy of the report per poll
        ObjectNode out = JSON.createObjectNode();
        out.put("title", title);
        out.putArray("runs").addAll((ArrayNode) cached.get("runs"));
        out.put("generatedAt", Instant.now().toString());
        Sample s = last;
        ObjectNode live = out.putObject("live");
        live.put("state", state);
        if (s != null) {
            live.put("what", s.what());
            live.put("elapsedSeconds", s.elapsedSeconds());
            live.put("opsPerSecond", s.opsPerSecond());
            live.put("p50Micros", s.p50Micros());
            if (s.p99Micros() != null) {
                live.put("p99Micros", s.p99Micros());
            }
            live.put("ops", s.ops());
            live.put("errors", s.errors());
        }
        double[][] rows;
        synchronized (samples) {
            rows = samples.toArray(double[][]::new);
        }
        if (rows.length > 0) {
            out.withArray("runs").insert(0, liveSection(rows));
        }
        return out;
    }

    /** The last intervals as a section of their own, drawn first: op/s, p50 and (when measured) p99. */
    private ObjectNode liveSection(double[][] rows) {
        ObjectNode section = JSON.createObjectNode();
        section.put("name", "live: the last " + rows.length + " intervals");
        section.put("path", runDir.toString());
        section.put("kind", "live");
        ObjectNode chart = section.putArray("charts").addObject();
        chart.put("type", "time");
        chart.put("title", "op/s and latency per interval (seconds since the run started)");
        ArrayNode series = chart.putArray("series");
        series.add(series("op/s", rows, 1, "ops"));
        series.add(series("p50 µs", rows, 2, "lat"));
        if (java.util.Arrays.stream(rows).anyMatch(r -> !Double.isNaN(r[3]))) {
            series.add(series("p99 µs", rows, 3, "lat"));
        }
        return section;
    }

    private static ObjectNode series(String label, double[][] rows, int column, String axis) {
        ObjectNode s = JSON.createObjectNode();
        s.put("label", label);
        s.put("axis", axis);
        ArrayNode x = s.putArray("x");
        ArrayNode y = s.putArray("y");
        for (double[] r : rows) {
            x.add(Math.round(r[0] * 10) / 10.0);
            if (Double.isNaN(r[column])) {
                y.addNull();
            } else {
                y.add(Math.round(r[column] * 10) / 10.0);
            }
        }
        return s;
    }

    /** Prometheus' text exposition format. */
    String metrics() {
        Sample s = last;
        StringBuilder b = new StringBuilder();
        String what = s == null ? "" : s.what().replace("\\", "\\\\").replace("\"", "\\\"");
        gauge(b, "cpbench_up", "1 while the run is going", "", 1);
        if (s != null) {
            String l = "{what=\"" + what + "\"}";
            gauge(b, "cpbench_ops_per_second", "Throughput in the last interval", l, s.opsPerSecond());
            gauge(b, "cpbench_latency_p50_microseconds", "Median latency in the last interval", l, s.p50Micros());
            if (s.p99Micros() != null) {
                gauge(b, "cpbench_latency_p99_microseconds", "p99 latency in the last interval", l, s.p99Micros());
            }
            gauge(b, "cpbench_phase_ops", "Ops done in the current phase (scenario round or load run)", l, s.ops());
            gauge(b, "cpbench_phase_errors", "Errors in the current phase", l, s.errors());
            gauge(b, "cpbench_elapsed_seconds", "Seconds since the run started", "", s.elapsedSeconds());
        }
        return b.toString();
    }

    /**
     * Whether a request's {@code Host} names this server as a browser on this machine would: 127.0.0.1 or localhost,
     * with this port. Anything else (another name that resolves here, as in DNS rebinding; no Host at all) is refused.
     */
    static boolean ownHost(String host, int port) {
        if (host == null) {
            return false;
        }
        String h = host.strip().toLowerCase(Locale.ROOT);
        return h.equals("127.0.0.1:" + port) || h.equals("localhost:" + port);
    }

    private static void gauge(StringBuilder b, String name, String help, String labels, double value) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(" gauge\n");
        b.append(name).append(labels).append(' ').append(String.format(Locale.ROOT, "%s", value)).append('\n');
    }

    private static void send(HttpExchange exchange, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
