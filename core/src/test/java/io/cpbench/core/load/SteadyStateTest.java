package io.cpbench.core.load;

import org.junit.jupiter.api.Test;

import io.cpbench.core.stats.Bootstrap;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SteadyStateTest {

    private static final SteadyState RULE = SteadyState.DEFAULT;

    /**
     * Two fresh 5-member clusters' warm-ups on this project's 2-core machine (2026-11-28), op/s each second through a
     * smart client on one thread, as ClusterWarmup printed them; each ended where the rule called it steady.
     */
    static final double[][] RECORDED = {
            {162, 280, 266, 472, 311, 306, 398, 783, 951, 940, 785, 934, 886, 1_070, 603, 793, 767},
            {150, 259, 260, 323, 466, 286, 287, 474, 734, 949, 974, 822, 817, 992, 967, 548, 846, 734}};

    /** The first second at which the rule calls {@code rates} steady (1-based), or -1. */
    private static int steadyAt(double[] rates) {
        for (int n = 1; n <= rates.length; n++) {
            if (RULE.judge(Arrays.copyOf(rates, n)).steady()) {
                return n;
            }
        }
        return -1;
    }

    @Test
    void aRisingSeriesKeepsWarming() {
        double[] rising = new double[40];
        for (int i = 0; i < rising.length; i++) {
            rising[i] = 200 + 20 * i; // +20 op/s a second: at 1,000 op/s still 18 % across 10 s
        }
        assertThat(steadyAt(rising)).isEqualTo(-1);
        assertThat(RULE.judge(rising).riseSeen()).isGreaterThan(0.05);
        // a slow climb, 1 % a second, is still a climb: 9 % across the window
        double[] slow = new double[40];
        for (int i = 0; i < slow.length; i++) {
            slow[i] = 1_000 * Math.pow(1.01, i);
        }
        assertThat(steadyAt(slow)).isEqualTo(-1);
    }

    /** A planted slow start (ops 4 ms slower at first, less and less for 20 s), op/s with 10 % noise: not before 20 s. */
    @Test
    void aClimbThatEndsAt20sIsNotCalledSteadyBeforeIt() {
        SplittableRandom random = new SplittableRandom(20);
        for (int s = 0; s < 200; s++) {
            double[] rates = new double[60];
            for (int t = 0; t < rates.length; t++) {
                double wait = Math.max(0, 4 * (1 - t / 20.0));
                rates[t] = 1_000 / (0.75 + wait) * (1 + 0.10 * gaussian(random));
            }
            assertThat(steadyAt(rates)).as(Arrays.toString(rates)).isBetween(21, 60);
        }
    }

    @Test
    void aFlatSeriesStopsAsSoonAsItHasTwoWindows() {
        double[] flat = new double[21];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = 1_000 + (i % 3 - 1) * 10;
        }
        assertThat(steadyAt(flat)).isEqualTo(20);
        assertThat(RULE.judge(Arrays.copyOf(flat, 19)).steady()).as("fewer than 20 intervals").isFalse();
        assertThat(RULE.needs()).isEqualTo(20);
        assertThat(new SteadyState(10, 0.6, 0.05).needs()).as("without the step: one window").isEqualTo(10);
        // falling is steady enough: a warm-up waits for the cluster to stop getting faster
        double[] falling = new double[20];
        for (int i = 0; i < falling.length; i++) {
            falling[i] = 1_100 - 20 * i;
        }
        assertThat(steadyAt(falling)).isEqualTo(20);
    }

    @Test
    void aDisturbedIntervalHoldsItBackUntilItLeavesTheWindow() {
        double[] dip = new double[30];
        Arrays.fill(dip, 1_000);
        dip[13] = 300; // second 14: in every last window up to second 23
        assertThat(steadyAt(dip)).isEqualTo(24);
        assertThat(RULE.judge(Arrays.copyOf(dip, 23)).spreadSeen()).isCloseTo(0.7, org.assertj.core.api.Assertions.within(1e-9));
    }

    /** A plateau on a climb is flat within itself: the step up from the window before gives it away. */
    @Test
    void aStepUpFromTheWindowBeforeKeepsItWarming() {
        double[] stairs = new double[30];
        for (int i = 0; i < stairs.length; i++) {
            stairs[i] = i < 10 ? 300 : 400; // 33 % up at second 11, then flat
        }
        assertThat(RULE.judge(Arrays.copyOf(stairs, 20)).steady()).isFalse();
        assertThat(RULE.judge(Arrays.copyOf(stairs, 20)).stepSeen()).isCloseTo(1.0 / 3, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(steadyAt(stairs)).as("once the window before is mostly on the plateau too").isEqualTo(26);
        double[] small = stairs.clone();
        for (int i = 10; i < small.length; i++) {
            small[i] = 325; // 8 % up: within the step
        }
        assertThat(steadyAt(small)).isEqualTo(20);
    }

    /** 10 % Gaussian noise around a flat level: stops within 60 s in every one of 1,000 series, mostly at once. */
    @Test
    void aNoisyFlatSeriesStopsWithinItsBound() {
        SplittableRandom random = new SplittableRandom(62);
        int[] at = new int[1_000];
        for (int s = 0; s < at.length; s++) {
            double[] rates = new double[60];
            for (int i = 0; i < rates.length; i++) {
                rates[i] = 1_000 * (1 + 0.10 * gaussian(random));
            }
            at[s] = steadyAt(rates);
        }
        assertThat(Arrays.stream(at).filter(a -> a < 0).count()).as("series that never settled").isZero();
        Arrays.sort(at);
        assertThat(at[at.length / 2]).as("median second it settled").isLessThanOrEqualTo(22);
    }

    /** The rule before the step check: one window of history. */
    private static final SteadyState BEFORE = new SteadyState(10, 0.6, 0.05);

    /**
     * The slow hour's warm-up (issue 72, shared/findings/cold-round-1.md): 53 op/s climbing to 335 in 32 s, and the same
     * cluster at 1,000-1,500 op/s minutes later; and a CI rehearsal's warm-up under a planted slow start on a machine as
     * slow (48 op/s climbing to 119 in 18 s; its rounds then ran at 293-474 op/s).
     */
    static final double[][] FOOLED = {
            {53, 79, 100, 99, 92, 72, 88, 98, 104, 116, 102, 169, 141, 108, 121, 100, 92, 124, 150, 175, 207, 197, 260, 347,
                    295, 360, 369, 403, 350, 299, 298, 323},
            {48, 62, 70, 84, 88, 88, 89, 94, 106, 115, 106, 115, 110, 102, 100, 136, 105, 119}};

    @Test
    void theSlowHoursWarmUpsAreNotCalledSteadyOnTheirPlateaus() {
        for (double[] series : FOOLED) {
            assertThat(steadyAt(BEFORE, series)).as("the rule before the step stopped here").isEqualTo(series.length);
            assertThat(steadyAt(series)).as("this rule: not within " + series.length + " s").isEqualTo(-1);
        }
        SteadyState.Verdict v = RULE.judge(FOOLED[0]);
        assertThat(v.stepSeen()).as("335 against the 10 s before").isGreaterThan(1.0);
    }

    @Test
    void aRecordedWarmUpIsNotCalledSteadyWhileItRose() {
        for (double[] recorded : RECORDED) {
            // the rule before the step stopped these where they end; this one needs 20 s of history
            assertThat(steadyAt(BEFORE, recorded)).as(Arrays.toString(recorded)).isEqualTo(recorded.length);
            assertThat(steadyAt(recorded)).isEqualTo(-1);
            double[] longer = Arrays.copyOf(recorded, 40);
            double tail = RULE.judge(recorded).median() > 0 ? RULE.judge(recorded).median() : Bootstrap.medianOf(Arrays.copyOfRange(recorded, recorded.length - 10, recorded.length));
            Arrays.fill(longer, recorded.length, longer.length, tail);
            int at = steadyAt(longer);
            assertThat(at).as("held at its last level, it settles once two windows are past the climb").isBetween(21, 31);
        }
    }

    /**
     * Before and after the step check, on simulated series of 60 s (1,000 each; 10 % Gaussian noise unless said): how
     * many are called steady too early, and when they settle (median second; -1 when more than half never did). Too
     * early: for a climb, before it has ended (or come within 10 % of its final level).
     */
    @Test
    void theRuleBeforeAndAfterOnSimulatedSeries() {
        String[] names = {"flat, 10 % noise", "flat, 20 % noise", "planted slow start ending at 20 s",
                "S-curve: 50 -> 350 by 14 s, 10 s plateau, -> 1,050 by 36 s"};
        System.out.println("| series | rule | too early | median second steady | never within 60 s |");
        System.out.println("|---|---|---|---|---|");
        for (int kind = 0; kind < names.length; kind++) {
            for (SteadyState rule : List.of(BEFORE, RULE)) {
                SplittableRandom random = new SplittableRandom(1000 + kind);
                int early = 0;
                int never = 0;
                int[] at = new int[1_000];
                for (int s = 0; s < at.length; s++) {
                    double[] rates = new double[60];
                    int ends = 0;
                    for (int t = 0; t < rates.length; t++) {
                        double level = switch (kind) {
                            case 0, 1 -> 1_000;
                            case 2 -> 1_000 / (0.75 + Math.max(0, 4 * (1 - t / 20.0)));
                            default -> 50 + 300 / (1 + Math.exp(-(t - 8) / 2.0)) + 700 / (1 + Math.exp(-(t - 30) / 2.0));
                        };
                        rates[t] = level * (1 + (kind == 1 ? 0.20 : 0.10) * gaussian(random));
                    }
                    ends = switch (kind) {
                        case 0, 1 -> 0;
                        case 2 -> 20;
                        default -> 36;
                    };
                    at[s] = steadyAt(rule, rates);
                    if (at[s] < 0) {
                        never++;
                    } else if (at[s] <= ends) {
                        early++;
                    }
                }
                Arrays.sort(at);
                System.out.printf(java.util.Locale.ROOT, "| %s | %s | %.1f %% | %d | %.1f %% |%n", names[kind],
                        rule == BEFORE ? "before (one window)" : "after (the step)", early / 10.0, at[at.length / 2], never / 10.0);
                if (rule == RULE) {
                    assertThat(early).as(names[kind] + ": too early").isLessThanOrEqualTo(kind >= 2 ? 5 : 0);
                    assertThat(never).as(names[kind] + ": never").isLessThanOrEqualTo(kind == 1 ? 40 : 5);
                }
            }
        }
    }

    private static int steadyAt(SteadyState rule, double[] rates) {
        for (int n = 1; n <= rates.length; n++) {
            if (rule.judge(Arrays.copyOf(rates, n)).steady()) {
                return n;
            }
        }
        return -1;
    }

    @Test
    void badRulesAreRefused() {
        assertThatThrownBy(() -> new SteadyState(2, 0.2, 0.05)).hasMessageContaining("3 or more");
        assertThatThrownBy(() -> new SteadyState(5, 0, 0.05)).hasMessageContaining("above 0");
        assertThatThrownBy(() -> new SteadyState(5, 0.5, 0.05, -0.1)).hasMessageContaining("step must be 0");
        assertThat(RULE.judge(new double[]{0, 0, 0, 0, 0}).steady()).as("no ops at all").isFalse();
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
