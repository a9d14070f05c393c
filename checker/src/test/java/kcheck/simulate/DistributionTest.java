package kcheck.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DistributionTest {

    private static Distribution of(double... v) {
        return new Distribution(v, new int[] {0, v.length}, 1);
    }

    @Test
    void quantilesAreNearestRank() {
        Distribution d = of(5, 1, 4, 2, 3, 6, 7, 8, 9, 10);
        assertThat(d.quantile(0.5)).isEqualTo(5);
        assertThat(d.quantile(0.99)).isEqualTo(10);
        assertThat(d.quantile(0.1)).isEqualTo(1);
        assertThat(d.quantile(0.11)).isEqualTo(2);
        assertThat(d.max()).isEqualTo(10);
        assertThat(d.min()).isEqualTo(1);
        assertThat(d.mean()).isEqualTo(5.5);
        assertThat(of().mean()).isNaN();
    }

    @Test
    void theIntervalComesFromTheSpreadOverBatches() {
        /* four batches whose means are 1, 2, 3, 4: mean 2.5, sd 1.291, t(3) = 3.182 */
        Distribution d = new Distribution(new double[] {1, 1, 2, 2, 3, 3, 4, 4}, new int[] {0, 2, 4, 6, 8}, 4);
        assertThat(d.mean()).isEqualTo(2.5);
        assertThat(d.halfWidth(Distribution.of("mean"))).isCloseTo(3.182 * 1.2910 / 2, within(1e-3));
        Distribution flat = new Distribution(new double[] {2, 2, 2, 2}, new int[] {0, 1, 2, 3, 4}, 4);
        assertThat(flat.halfWidth(Distribution.of("mean"))).isZero();
        assertThat(of(1, 2, 3).halfWidth(Distribution.of("mean"))).as("one batch: no interval").isNaN();
    }

    @Test
    void runsNeededGrowWithTheSquareOfThePrecision() {
        Distribution d = new Distribution(new double[] {1, 2}, new int[] {0, 1, 2}, 100);
        /* half-width 10% of the estimate with 100 runs: 5% needs 400 runs, 20% needs 25 */
        assertThat(d.runsFor(10, 1, 0.05)).isEqualTo(400);
        assertThat(d.runsFor(10, 1, 0.2)).isEqualTo(25);
        assertThat(d.runsFor(10, Double.NaN, 0.05)).isEqualTo(-1);
    }

    @Test
    void poolingKeepsTheBatchesOfRuns() {
        Distribution a = new Distribution(new double[] {1, 2, 3}, new int[] {0, 1, 3}, 2);
        Distribution b = new Distribution(new double[] {10, 20}, new int[] {0, 1, 2}, 2);
        Distribution p = Distribution.pool(a, b);
        assertThat(p.count()).isEqualTo(5);
        assertThat(p.batch(0).count()).isEqualTo(2);
        assertThat(p.batch(0).max()).isEqualTo(10);
        assertThat(p.batch(1).count()).isEqualTo(3);
        assertThat(p.max()).isEqualTo(20);
    }

    @Test
    void componentSpecsNameCpus() {
        assertThat(Comparison.components("last:2", 8)).containsExactly(6, 7);
        assertThat(Comparison.components("all", 3)).containsExactly(0, 1, 2);
        assertThat(Comparison.components("0, 3", 8)).containsExactly(0, 3);
    }
}
