package io.cpbench.core.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One stage of a ramp, as in k6's {@code stages}: over {@code duration}, the level moves linearly from where the
 * previous stage ended to {@code target}. The level is active workers in a closed loop, op/s in an open loop.
 */
public record Stage(Duration duration, double target) {

    public Stage {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a stage's duration must be positive, was " + duration);
        }
        if (!(target >= 0) || Double.isInfinite(target)) {
            throw new IllegalArgumentException("a stage's target must be 0 or more, was " + target);
        }
    }

    /** {@code 30s:10}. */
    public static Stage parse(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split(":");
        if (parts.length != 2) {
            throw new IllegalArgumentException("stage '" + text + "' must be DURATION:TARGET, like 30s:10");
        }
        Duration duration = Durations.parse(parts[0]);
        double target;
        try {
            target = Double.parseDouble(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("stage '" + text + "': target '" + parts[1] + "' is not a number");
        }
        try {
            return new Stage(duration, target);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("stage '" + text + "': " + e.getMessage());
        }
    }

    /** {@code 30s:10,1m:50,30s:0}. */
    public static List<Stage> parseList(String text) {
        List<Stage> stages = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                stages.add(parse(part));
            }
        }
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("no stages in '" + text + "'; write them like 30s:10,1m:50,30s:0");
        }
        return stages;
    }

    @Override
    public String toString() {
        return Durations.format(duration) + ":" + (target == Math.rint(target) ? String.valueOf((long) target)
                : String.format(Locale.ROOT, "%.2f", target));
    }
}
