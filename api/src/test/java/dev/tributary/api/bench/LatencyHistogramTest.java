package dev.tributary.api.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void everyValueFallsInsideItsBucketAndBucketsAreNarrow() {
        for (long micros = 0; micros < 100_000_000; micros = micros < 1_000 ? micros + 1 : micros + micros / 97) {
            int index = LatencyHistogram.index(micros);
            assertThat(LatencyHistogram.lowerBound(index)).as("lower bound of %d", micros).isLessThanOrEqualTo(micros);
            assertThat(LatencyHistogram.upperBound(index)).as("upper bound of %d", micros).isGreaterThanOrEqualTo(micros);
            long width = LatencyHistogram.upperBound(index) - LatencyHistogram.lowerBound(index) + 1;
            if (micros < 128) {
                assertThat(width).as("exact below 128 µs").isEqualTo(1);
            } else {
                assertThat((double) width / micros).as("relative width at %d", micros).isLessThanOrEqualTo(1.0 / 64);
            }
        }
    }

    @Test
    void bucketsFollowEachOtherWithoutGaps() {
        for (int index = 0; index < 1_000; index++) {
            assertThat(LatencyHistogram.lowerBound(index + 1)).isEqualTo(LatencyHistogram.upperBound(index) + 1);
        }
    }

    @Test
    void quantilesOfAUniformSpreadAreWhereTheyShouldBe() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int micros = 1; micros <= 10_000; micros++) {
            histogram.record(micros * 1_000L);
        }

        assertThat(histogram.count()).isEqualTo(10_000);
        assertThat(histogram.quantileMillis(0.50)).isCloseTo(5.0, within(0.05));
        assertThat(histogram.quantileMillis(0.99)).isCloseTo(9.9, within(0.1));
        assertThat(histogram.quantileMillis(1.0)).isCloseTo(10.0, within(0.1));
    }

    @Test
    void mergedHistogramsCountBoth() {
        LatencyHistogram fast = new LatencyHistogram();
        LatencyHistogram slow = new LatencyHistogram();
        for (int i = 0; i < 90; i++) {
            fast.record(1_000_000); // 1 ms
        }
        for (int i = 0; i < 10; i++) {
            slow.record(100_000_000); // 100 ms
        }

        fast.add(slow);

        assertThat(fast.count()).isEqualTo(100);
        assertThat(fast.quantileMillis(0.50)).isCloseTo(1.0, within(0.02));
        assertThat(fast.quantileMillis(0.99)).isCloseTo(100.0, within(1.0));
    }

    @Test
    void anEmptyHistogramHasNoQuantile() {
        assertThat(new LatencyHistogram().quantileMillis(0.5)).isNaN();
    }
}
