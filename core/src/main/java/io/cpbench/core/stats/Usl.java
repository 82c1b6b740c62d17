package io.cpbench.core.stats;

import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

import java.util.Arrays;

/**
 * Gunther's Universal Scalability Law, {@code X(N) = λN / (1 + σ(N-1) + κN(N-1))}, fitted to throughput measured
 * at several concurrencies by nonlinear least squares (Levenberg-Marquardt, from Apache Commons Math) with σ and κ
 * kept at or above 0. σ is contention (the serial fraction: the Raft leader's log, one member's I/O), κ coherency
 * (the cost of keeping workers in step: retries, waiting on each other); with κ above 0 throughput peaks at
 * {@code N* = sqrt((1-σ)/κ)} and falls beyond it.
 *
 * @param lambda   throughput of one worker, op/s
 * @param sigma    contention, 0-1
 * @param kappa    coherency, at least 0
 * @param rSquared how much of the variance in the points the curve explains (1 is a perfect fit)
 * @param points   how many (N, X) points the fit used
 */
public record Usl(double lambda, double sigma, double kappa, double rSquared, int points) {

    /** The curve's throughput at concurrency {@code n}. */
    public double throughput(double n) {
        return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
    }

    /** Where throughput peaks: {@code sqrt((1-σ)/κ)}; infinite when κ is 0 or σ reaches 1 (no retrograde region). */
    public double peakConcurrency() {
        if (kappa <= 0 || sigma >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.sqrt((1 - sigma) / kappa);
    }

    /** The curve's throughput at its peak, or its asymptote {@code λ/σ} when there is no peak. */
    public double peakThroughput() {
        double n = peakConcurrency();
        if (Double.isInfinite(n)) {
            return sigma > 0 ? lambda / sigma : Double.POSITIVE_INFINITY;
        }
        return throughput(n);
    }

    /**
     * Fits the law to {@code (n[i], x[i])}: all points, repeats included, so that R² says how well the curve
     * explains the measurements rather than their means.
     *
     * @throws IllegalArgumentException with fewer than 3 distinct concurrencies, a concurrency below 1, or a
     *                                  throughput that is not positive
     */
    public static Usl fit(double[] n, double[] x) {
        check(n, x);
        // Start from the linear region: λ from the points at the lowest concurrency, no contention, no coherency.
        double lowest = Arrays.stream(n).min().orElseThrow();
        double lambda0 = 0;
        int atLowest = 0;
        for (int i = 0; i < n.length; i++) {
            if (n[i] == lowest) {
                lambda0 += x[i] / n[i];
                atLowest++;
            }
        }
        lambda0 /= atLowest;
        MultivariateJacobianFunction model = model(n);
        LeastSquaresOptimizer.Optimum optimum = new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder()
                .start(new double[]{lambda0, 0.01, 0.0001})
                .model(model)
                .target(x)
                .parameterValidator(p -> {
                    RealVector v = p.copy();
                    v.setEntry(0, Math.max(1e-9, v.getEntry(0)));
                    v.setEntry(1, Math.min(1, Math.max(0, v.getEntry(1))));
                    v.setEntry(2, Math.max(0, v.getEntry(2)));
                    return v;
                })
                .maxEvaluations(10_000)
                .maxIterations(10_000)
                .build());
        RealVector p = optimum.getPoint();
        Usl usl = new Usl(p.getEntry(0), p.getEntry(1), p.getEntry(2), 0, n.length);
        double mean = Arrays.stream(x).average().orElse(0);
        double residual = 0;
        double total = 0;
        for (int i = 0; i < n.length; i++) {
            residual += Math.pow(x[i] - usl.throughput(n[i]), 2);
            total += Math.pow(x[i] - mean, 2);
        }
        double r2 = total == 0 ? (residual == 0 ? 1 : 0) : 1 - residual / total;
        return new Usl(usl.lambda, usl.sigma, usl.kappa, r2, n.length);
    }

    private static void check(double[] n, double[] x) {
        if (n.length != x.length) {
            throw new IllegalArgumentException("as many concurrencies as throughputs, please");
        }
        if (Arrays.stream(n).distinct().count() < 3) {
            throw new IllegalArgumentException("a USL fit needs at least 3 different concurrencies, had "
                    + Arrays.stream(n).distinct().count());
        }
        for (int i = 0; i < n.length; i++) {
            if (!(n[i] >= 1) || !(x[i] > 0) || Double.isInfinite(x[i])) {
                throw new IllegalArgumentException("a USL fit needs concurrency >= 1 and throughput > 0, had N=" + n[i]
                        + ", X=" + x[i]);
            }
        }
    }

    /** X(N) = λN / (1 + σ(N-1) + κN(N-1)) at each {@code n}, with its Jacobian in λ, σ, κ. */
    private static MultivariateJacobianFunction model(double[] n) {
        return point -> {
            double l = point.getEntry(0);
            double s = point.getEntry(1);
            double k = point.getEntry(2);
            RealVector value = new ArrayRealVector(n.length);
            double[][] jacobian = new double[n.length][3];
            for (int i = 0; i < n.length; i++) {
                double ni = n[i];
                double d = 1 + s * (ni - 1) + k * ni * (ni - 1);
                value.setEntry(i, l * ni / d);
                jacobian[i][0] = ni / d;
                jacobian[i][1] = -l * ni * (ni - 1) / (d * d);
                jacobian[i][2] = -l * ni * ni * (ni - 1) / (d * d);
            }
            return new Pair<>(value, new Array2DRowRealMatrix(jacobian, false));
        };
    }
}
