package dev.tributary.api.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadProcessTest {

    @Test
    void aResultCrossesBetweenTheProcessesWhole() {
        LatencyHistogram latencies = new LatencyHistogram();
        for (long micros : new long[] {5, 5, 90, 130, 4_000, 4_100, 250_000, 1_900_000}) {
            latencies.record(micros * 1_000);
        }
        LoadGenerator.Result sent = new LoadGenerator.Result(8, 12.0, latencies, Map.of(401, 3L, 503, 1L), 2, 7, 530_000, true);

        LoadGenerator.Result received = LoadProcess.decode(LoadProcess.encode(sent));

        assertThat(received.requests()).isEqualTo(8);
        assertThat(received.seconds()).isEqualTo(12.0);
        assertThat(received.failedStatuses()).isEqualTo(Map.of(401, 3L, 503, 1L));
        assertThat(received.ioErrors()).isEqualTo(2);
        assertThat(received.reconnects()).isEqualTo(7);
        assertThat(received.bodyBytes()).isEqualTo(530_000);
        assertThat(received.capped()).isTrue();
        assertThat(received.latencies().count()).isEqualTo(8);
        for (double q : new double[] {0.01, 0.25, 0.5, 0.75, 0.99, 1.0}) {
            assertThat(received.latencies().quantileMillis(q)).isEqualTo(latencies.quantileMillis(q));
        }
    }

    @Test
    void anEmptyResultCrossesToo() {
        LoadGenerator.Result sent = new LoadGenerator.Result(0, 0.0, new LatencyHistogram(), Map.of(), 0, 0, 0, false);

        LoadGenerator.Result received = LoadProcess.decode(LoadProcess.encode(sent));

        assertThat(received.latencies().count()).isZero();
        assertThat(received.failedStatuses()).isEmpty();
        assertThat(received.capped()).isFalse();
    }

    @Test
    void aLineThatIsNotAResultIsRefused() {
        assertThatIllegalStateException().isThrownBy(() -> LoadProcess.decode("ok"));
    }
}
