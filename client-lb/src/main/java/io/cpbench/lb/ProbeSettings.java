package io.cpbench.lb;

import io.soabase.recordbuilder.core.RecordBuilder;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * How the probing balancers measure members. Each probe is one linearizable CP read (an {@code IAtomicLong.get} of
 * {@value ProbingLoadBalancer#PROBE_OBJECT} in {@link #cpGroup}) sent down one member's connection: a follower
 * forwards it to the group's leader, the leader answers it directly, a slow member adds its delay.
 *
 * @param cpGroup      the CP group whose leader and latency matter (the group the application's CP objects live in)
 * @param period       how often each member is probed in steady state
 * @param burstPeriod  how often each member is probed right after start-up and after a membership change
 * @param burstLength  how long such a burst lasts
 * @param timeout      a probe unanswered this long counts as a sample this slow
 * @param window       how far back samples count
 * @param minSamples   samples in the window a member needs before it can be judged
 * @param excludeRatio latency-aware: exclude a member whose median exceeds this × the best member's median
 * @param readmitRatio latency-aware: readmit an excluded member once its median is at most this × the best
 * @param excludeQuantile latency-aware: which quantile of a member's probe times the ratios compare (0.5, the
 *                     median, by default; 0.1 compares the fixed cost of each member's path, without the noise)
 * @param switchMargin leader-aware: move to another member only when its median is this fraction below the current one's
 * @param sticky       leader-aware: send every call to the leader; false gives round robin over all members, with the
 *                     same probing, for comparison
 * @param leaderHint   leader-aware: ask the members who leads ({@link LeaderHint}) when they have the class, once a
 *                     probe period; false finds the leader by latency alone
 * @param leaderSilence leader-aware: the leader's connection gets a ping once it has been quiet for half of this;
 *                     when the ping has gone unanswered this long, the other members are asked who leads every burst
 *                     period, and when they name another leader while it is still silent, its connection is closed,
 *                     so that the calls waiting on it end at once (indeterminate) instead of after the client's
 *                     heartbeat timeout. Zero turns this off.
 */
@RecordBuilder
public record ProbeSettings(String cpGroup, Duration period, Duration burstPeriod, Duration burstLength, Duration timeout,
                            Duration window, int minSamples, double excludeRatio, double readmitRatio,
                            double excludeQuantile, double switchMargin, boolean sticky, boolean leaderHint,
                            Duration leaderSilence) {

    public static final String PREFIX = "cpbench.lb.";
    public static final String CP_GROUP = PREFIX + "cp-group";
    public static final String PERIOD_MS = PREFIX + "probe-period-ms";
    public static final String TIMEOUT_MS = PREFIX + "probe-timeout-ms";
    public static final String WINDOW_MS = PREFIX + "window-ms";
    public static final String MIN_SAMPLES = PREFIX + "min-samples";
    public static final String EXCLUDE_RATIO = PREFIX + "exclude-ratio";
    public static final String READMIT_RATIO = PREFIX + "readmit-ratio";
    public static final String EXCLUDE_QUANTILE = PREFIX + "exclude-quantile";
    public static final String SWITCH_MARGIN = PREFIX + "leader.switch-margin";
    public static final String STICKY = PREFIX + "leader.sticky";
    public static final String LEADER_HINT = PREFIX + "leader.hint";
    public static final String LEADER_SILENCE_MS = PREFIX + "leader.silence-ms";

    public ProbeSettings {
        Objects.requireNonNull(cpGroup, "cpGroup");
        if (cpGroup.isBlank() || cpGroup.contains("@")) {
            throw new IllegalArgumentException(CP_GROUP + " must be a CP group name, got '" + cpGroup + "'");
        }
        positive(period, PERIOD_MS);
        positive(burstPeriod, "burstPeriod");
        positive(burstLength, "burstLength");
        positive(timeout, TIMEOUT_MS);
        positive(window, WINDOW_MS);
        if (window.compareTo(period) < 0) {
            throw new IllegalArgumentException(WINDOW_MS + " (" + window.toMillis() + ") must be at least the probe period ("
                    + period.toMillis() + " ms)");
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException(MIN_SAMPLES + " must be at least 1, got " + minSamples);
        }
        if (!(excludeRatio > 1.0) || !(readmitRatio >= 1.0) || readmitRatio > excludeRatio) {
            throw new IllegalArgumentException("need " + EXCLUDE_RATIO + " > 1 and 1 <= " + READMIT_RATIO + " <= "
                    + EXCLUDE_RATIO + ", got " + excludeRatio + " and " + readmitRatio);
        }
        if (!(excludeQuantile >= 0.0 && excludeQuantile <= 1.0)) {
            throw new IllegalArgumentException(EXCLUDE_QUANTILE + " must be in [0, 1], got " + excludeQuantile);
        }
        if (leaderSilence == null || leaderSilence.isNegative()) {
            throw new IllegalArgumentException(LEADER_SILENCE_MS + " must be 0 (off) or more, got "
                    + (leaderSilence == null ? "none" : leaderSilence.toMillis() + " ms"));
        }
        if (!(switchMargin >= 0.0 && switchMargin < 1.0)) {
            throw new IllegalArgumentException(SWITCH_MARGIN + " must be in [0, 1), got " + switchMargin);
        }
    }

    /**
     * Probe each member once a second (5 CP reads a second on a 5-member cluster), every 100 ms for 3 s after start
     * and membership changes; judge on the last 10 s, from 5 samples up. Latency-aware: compare members by their
     * fastest tenth of probes (the fixed cost of their path, not the noise of a busy machine), exclude above 1.15× the
     * best, readmit at 1.05×. Leader-aware: change leader at a 25 % lower fastest tenth, sticky, ask members for the
     * leader; a leader that leaves a ping unanswered for 500 ms is suspected (see {@code leaderSilence}).
     *
     * <p>For CP calls the leader is the fastest member (no forwarding hop: a follower's fastest tenth was 1.3-1.6× the
     * leader's on loopback), so the latency-aware defaults keep the leader and followers within 15 % of it, and drop
     * a slow member (a 10 ms link: about 17×). {@link #sickMembersOnly()} (3× the median) keeps every member that is
     * not really slow, spreading calls, forwarding hops included. Comparing medians with a tight ratio is not
     * offered as a default: a leader busy with the application's calls answered probes more slowly than followers
     * by median, and a test run with 1.25× medians excluded the leader itself.
     */
    public static ProbeSettings defaults() {
        return ProbeSettingsBuilder.builder().cpGroup("default").period(Duration.ofSeconds(1))
                .burstPeriod(Duration.ofMillis(100)).burstLength(Duration.ofSeconds(3)).timeout(Duration.ofSeconds(2))
                .window(Duration.ofSeconds(10)).minSamples(5).excludeRatio(1.15).readmitRatio(1.05)
                .excludeQuantile(0.1).switchMargin(0.25).sticky(true).leaderHint(true)
                .leaderSilence(Duration.ofMillis(500)).build();
    }

    public ProbeSettings withCpGroup(String group) {
        return ProbeSettingsBuilder.builder(this).cpGroup(group).build();
    }

    public ProbeSettings withPeriod(Duration newPeriod, Duration newWindow) {
        return ProbeSettingsBuilder.builder(this).period(newPeriod).window(newWindow).build();
    }

    /** Latency-aware exclusion: above {@code exclude} × the best, readmitted at {@code readmit} ×, by quantile {@code q}. */
    public ProbeSettings withExclusion(double exclude, double readmit, double q) {
        return ProbeSettingsBuilder.builder(this).excludeRatio(exclude).readmitRatio(readmit).excludeQuantile(q)
                .build();
    }

    /** Latency-aware exclusion of sick members only: above 3× the best median, readmitted at 1.5×. */
    public ProbeSettings sickMembersOnly() {
        return withExclusion(3.0, 1.5, 0.5);
    }

    public ProbeSettings withSticky(boolean isSticky) {
        return ProbeSettingsBuilder.builder(this).sticky(isSticky).build();
    }

    public ProbeSettings withLeaderHint(boolean hint) {
        return ProbeSettingsBuilder.builder(this).leaderHint(hint).build();
    }

    /**
     * The defaults, overridden by whichever of these properties are set: {@value #CP_GROUP}, {@value #PERIOD_MS},
     * {@value #TIMEOUT_MS}, {@value #WINDOW_MS}, {@value #MIN_SAMPLES}, {@value #EXCLUDE_RATIO},
     * {@value #READMIT_RATIO}, {@value #EXCLUDE_QUANTILE}, {@value #SWITCH_MARGIN}, {@value #STICKY}, {@value #LEADER_HINT},
     * {@value #LEADER_SILENCE_MS}.
     *
     * @throws IllegalArgumentException naming the property, when a value is malformed or out of range
     */
    public static ProbeSettings fromProperties(Function<String, String> properties) {
        ProbeSettings d = defaults();
        String group = properties.apply(CP_GROUP);
        return ProbeSettingsBuilder.builder().cpGroup(group == null ? d.cpGroup : group.trim())
                .period(millis(properties, PERIOD_MS, d.period)).burstPeriod(d.burstPeriod).burstLength(d.burstLength)
                .timeout(millis(properties, TIMEOUT_MS, d.timeout)).window(millis(properties, WINDOW_MS, d.window))
                .minSamples((int) number(properties, MIN_SAMPLES, d.minSamples, true))
                .excludeRatio(number(properties, EXCLUDE_RATIO, d.excludeRatio, false))
                .readmitRatio(number(properties, READMIT_RATIO, d.readmitRatio, false))
                .excludeQuantile(number(properties, EXCLUDE_QUANTILE, d.excludeQuantile, false))
                .switchMargin(number(properties, SWITCH_MARGIN, d.switchMargin, false))
                .sticky(bool(properties, STICKY, d.sticky)).leaderHint(bool(properties, LEADER_HINT, d.leaderHint))
                .leaderSilence(millis(properties, LEADER_SILENCE_MS, d.leaderSilence)).build();
    }

    /** The settings as the client properties that give them (burst timing has no property and is left out). */
    public java.util.Map<String, String> toProperties() {
        java.util.Map<String, String> p = new java.util.LinkedHashMap<>();
        p.put(CP_GROUP, cpGroup);
        p.put(PERIOD_MS, Long.toString(period.toMillis()));
        p.put(TIMEOUT_MS, Long.toString(timeout.toMillis()));
        p.put(WINDOW_MS, Long.toString(window.toMillis()));
        p.put(MIN_SAMPLES, Integer.toString(minSamples));
        p.put(EXCLUDE_RATIO, Double.toString(excludeRatio));
        p.put(READMIT_RATIO, Double.toString(readmitRatio));
        p.put(EXCLUDE_QUANTILE, Double.toString(excludeQuantile));
        p.put(SWITCH_MARGIN, Double.toString(switchMargin));
        p.put(STICKY, Boolean.toString(sticky));
        p.put(LEADER_HINT, Boolean.toString(leaderHint));
        p.put(LEADER_SILENCE_MS, Long.toString(leaderSilence.toMillis()));
        return p;
    }

    /** The properties in which these settings differ from the defaults, as {@code key=value, ...}; empty if none. */
    public String differencesFromDefaults() {
        java.util.Map<String, String> defaults = defaults().toProperties();
        java.util.StringJoiner text = new java.util.StringJoiner(", ");
        toProperties().forEach((key, value) -> {
            if (!value.equals(defaults.get(key))) {
                text.add(key + "=" + value);
            }
        });
        return text.toString();
    }

    private static Duration millis(Function<String, String> properties, String key, Duration fallback) {
        return Duration.ofMillis((long) number(properties, key, fallback.toMillis(), true));
    }

    private static double number(Function<String, String> properties, String key, double fallback, boolean integer) {
        String value = properties.apply(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return integer ? Long.parseLong(value.trim()) : Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be " + (integer ? "a whole number" : "a number") + ", got '"
                    + value + "'");
        }
    }

    private static boolean bool(Function<String, String> properties, String key, boolean fallback) {
        String value = properties.apply(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got '" + value + "'");
        };
    }

    private static void positive(Duration duration, String name) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + duration);
        }
    }
}
