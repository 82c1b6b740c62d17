package io.cpbench.core.load;

import java.util.List;

/**
 * A run's level over time: a start level, then stages that each move it linearly to their target. For a closed
 * loop the level is how many workers are active; for an open loop it is the rate in op/s, and
 * {@link #slotOffsetNanos(long)} gives each op its intended start, so ops are timed from when they were due.
 */
public final class Profile {

    private final double start;
    private final List<Stage> stages;
    private final long[] stageStartNanos;
    private final double[] stageFromLevel;
    /** Ops due before each stage (open loop). */
    private final double[] opsBefore;
    private final long totalNanos;
    private final double totalOps;

    public Profile(double start, List<Stage> stages) {
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a profile needs at least one stage");
        }
        this.start = start;
        this.stages = List.copyOf(stages);
        this.stageStartNanos = new long[stages.size() + 1];
        this.stageFromLevel = new double[stages.size()];
        this.opsBefore = new double[stages.size() + 1];
        double level = start;
        for (int i = 0; i < stages.size(); i++) {
            Stage s = stages.get(i);
            stageFromLevel[i] = level;
            stageStartNanos[i + 1] = stageStartNanos[i] + s.duration().toNanos();
            opsBefore[i + 1] = opsBefore[i] + (level + s.target()) / 2 * s.duration().toNanos() / 1e9;
            level = s.target();
        }
        this.totalNanos = stageStartNanos[stages.size()];
        this.totalOps = opsBefore[stages.size()];
    }

    /** A flat level for {@code duration}. */
    public static Profile flat(double level, java.time.Duration duration) {
        return new Profile(level, List.of(new Stage(duration, level)));
    }

    public List<Stage> stages() {
        return stages;
    }

    public double startLevel() {
        return start;
    }

    public long totalNanos() {
        return totalNanos;
    }

    /** Ops an open loop at this profile's rates makes due, in all. */
    public double totalOps() {
        return totalOps;
    }

    /** The highest level reached. */
    public double peak() {
        double peak = start;
        for (Stage s : stages) {
            peak = Math.max(peak, s.target());
        }
        return peak;
    }

    /** The stage in effect {@code nanos} after the start (the last one after the end); 0-based. */
    public int stageAt(long nanos) {
        for (int i = 0; i < stages.size(); i++) {
            if (nanos < stageStartNanos[i + 1]) {
                return i;
            }
        }
        return stages.size() - 1;
    }

    /** When stage {@code index} (0-based) starts; {@code stages().size()} gives the end. */
    public long stageStartNanos(int index) {
        return stageStartNanos[index];
    }

    /** The level {@code nanos} after the start, interpolated within its stage. */
    public double levelAt(long nanos) {
        if (nanos <= 0) {
            return start;
        }
        if (nanos >= totalNanos) {
            return stages.get(stages.size() - 1).target();
        }
        int i = stageAt(nanos);
        double x = (double) (nanos - stageStartNanos[i]) / (stageStartNanos[i + 1] - stageStartNanos[i]);
        return stageFromLevel[i] + (stages.get(i).target() - stageFromLevel[i]) * x;
    }

    /**
     * When op {@code k} (0-based) of an open loop is due, in ns after the start: the time at which the integral of
     * the rate reaches {@code k}. {@link Long#MAX_VALUE} when the profile makes fewer than {@code k + 1} ops due.
     */
    public long slotOffsetNanos(long k) {
        if (k >= totalOps) {
            return Long.MAX_VALUE;
        }
        int i = 0;
        while (i < stages.size() - 1 && k >= opsBefore[i + 1]) {
            i++;
        }
        double n = k - opsBefore[i];
        double r0 = stageFromLevel[i];
        double r1 = stages.get(i).target();
        double d = (stageStartNanos[i + 1] - stageStartNanos[i]) / 1e9;
        // n = r0 x + (r1 - r0) x^2 / (2 d), solved for x in [0, d] in the form that stays exact when r1 is close to
        // r0 and when r0 is 0: x = 2n / (r0 + sqrt(r0^2 + 4 a n)), a = (r1 - r0) / (2 d)
        double a = (r1 - r0) / (2 * d);
        double root = r0 + Math.sqrt(Math.max(0, r0 * r0 + 4 * a * n));
        double seconds = root <= 0 ? 0 : 2 * n / root;
        long offset = stageStartNanos[i] + (long) (seconds * 1e9);
        return Math.min(Math.max(offset, stageStartNanos[i]), stageStartNanos[i + 1]);
    }

    /** Ops of the profile due within {@code elapsed} ns. */
    long dueBy(long elapsed) {
        long lo = 0;
        long hi = (long) Math.ceil(totalOps());
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (slotOffsetNanos(mid) < elapsed) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
