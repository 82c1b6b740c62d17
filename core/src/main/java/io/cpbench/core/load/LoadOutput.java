package io.cpbench.core.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code load.csv} (one row per interval per op, and one for all ops) and one {@code .hlog} per op, in the output
 * directory if there is one; and the interval log of all ops together, if asked for ({@link LoadEngine#intervalLog}).
 */
final class LoadOutput implements AutoCloseable {
    static final String HEADER = "elapsed_s,stage,level,op,ops,errors,ops_per_s,p50_us,p90_us,p95_us,p99_us,p999_us,"
            + "max_us,service_p50_us,service_p99_us,lag_p99_us,lag_max_us";
    private final PrintStream csv;
    private final HistogramLogWriter[] logs;
    private final PrintStream[] logStreams;
    private final OpType[] ops;
    private final boolean open;
    private final long base = System.currentTimeMillis();
    private final PrintStream allStream;
    private final HistogramLogWriter allLog;
    private double lastElapsed;

    LoadOutput(Path dir, OpType[] ops, boolean open, Path hlog) {
        this.ops = ops;
        this.open = open;
        logs = new HistogramLogWriter[ops.length];
        logStreams = new PrintStream[ops.length];
        if (hlog == null) {
            allStream = null;
            allLog = null;
        } else {
            try {
                allStream = new PrintStream(hlog.toFile(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write interval log " + hlog + ": " + e.getMessage(), e);
            }
            allLog = logWriter(allStream, "cp-bench measured intervals; latency values in microseconds");
        }
        if (dir == null) {
            csv = null;
            return;
        }
        try {
            csv = new PrintStream(dir.resolve("load.csv").toFile(), StandardCharsets.UTF_8);
            csv.println(HEADER);
            for (int i = 0; i < ops.length; i++) {
                logStreams[i] = new PrintStream(dir.resolve("load-" + ops[i].key() + ".hlog").toFile(), StandardCharsets.UTF_8);
                logs[i] = logWriter(logStreams[i], "cp-bench load, op " + ops[i].key() + "; latency in microseconds"
                        + (open ? ", counted from when each op was due" : ""));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write load output in " + dir + ": " + e.getMessage(), e);
        }
    }

    private HistogramLogWriter logWriter(PrintStream stream, String comment) {
        HistogramLogWriter writer = new HistogramLogWriter(stream);
        writer.outputComment(comment);
        writer.outputLogFormatVersion();
        writer.outputStartTime(base);
        writer.setBaseTime(base);
        writer.outputBaseTime(base);
        writer.outputLegend();
        return writer;
    }

    void write(Tally interval, double elapsed, int stage, double level) {
        if (csv == null && allLog == null) {
            return;
        }
        double seconds = interval.nanos / 1e9;
        boolean one = ops.length == 1; // then "all" is that op: no copies (the sampler allocates nothing per interval)
        Histogram all = one ? interval.latency[0] : new Histogram(Recording.MAX_MICROS, 3);
        Histogram allService = one ? interval.service[0] : new Histogram(Recording.MAX_MICROS, 3);
        long allErrors = 0;
        Row at = new Row(elapsed, stage, level, seconds, interval.lag);
        for (int i = 0; i < ops.length; i++) {
            row(at, ops[i].key(), interval.latency[i], interval.service[i], interval.errors[i]);
            if (!one) {
                all.add(interval.latency[i]);
                allService.add(interval.service[i]);
            }
            allErrors += interval.errors[i];
            if (csv != null && interval.latency[i].getTotalCount() > 0) {
                Histogram h = interval.latency[i];
                h.setStartTimeStamp(base + (long) (lastElapsed * 1000));
                h.setEndTimeStamp(base + (long) (elapsed * 1000));
                logs[i].outputIntervalHistogram(lastElapsed, elapsed, h, 1000.0);
            }
        }
        if (ops.length > 1) {
            row(at, "all", all, allService, allErrors);
        }
        if (allLog != null && all.getTotalCount() > 0) {
            all.setStartTimeStamp(base + (long) (lastElapsed * 1000));
            all.setEndTimeStamp(base + (long) (elapsed * 1000));
            allLog.outputIntervalHistogram(lastElapsed, elapsed, all, 1000.0);
        }
        lastElapsed = elapsed;
        if (csv != null) {
            csv.flush();
        }
    }

    /**
     * What an interval's CSV rows share: when it ended ({@code elapsed} s into the run), its stage and level, how
     * long it was, and the open loop's lag in it.
     */
    private record Row(double elapsed, int stage, double level, double seconds, Histogram lag) {
    }

    private void row(Row at, String op, Histogram h, Histogram service, long errors) {
        if (csv == null) {
            return;
        }
        LoadResult.LoadLatency l = LoadResult.LoadLatency.of(h);
        LoadResult.LoadLatency s = LoadResult.LoadLatency.of(service);
        LoadResult.LoadLatency g = LoadResult.LoadLatency.of(at.lag());
        double seconds = at.seconds();
        csv.println(io.cpbench.core.csv.Csv.row(String.format(Locale.ROOT, "%.3f", at.elapsed()), at.stage(),
                String.format(Locale.ROOT, "%.1f", at.level()), op, h.getTotalCount(), errors,
                String.format(Locale.ROOT, "%.1f", seconds <= 0 ? 0 : h.getTotalCount() / seconds), l.p50(), l.p90(),
                l.p95(), l.p99(), l.p999(), l.max(), s.p50(), s.p99(), open ? g.p99() : null, open ? g.max() : null));
    }

    @Override
    public void close() {
        if (csv != null) {
            csv.close();
        }
        if (allStream != null) {
            allStream.close();
        }
        for (PrintStream s : logStreams) {
            if (s != null) {
                s.close();
            }
        }
    }
}
