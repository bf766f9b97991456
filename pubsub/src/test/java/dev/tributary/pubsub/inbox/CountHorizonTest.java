package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.storage.IdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Where a raise takes the count horizon: its lag behind now, held below a pending fan-out, but within the max lag. */
class CountHorizonTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final CountHorizon horizon = new CountHorizon(null, null, new TimelineSettings(800, Duration.ofSeconds(30), 1000,
            Duration.ofDays(7), Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(1), 16, 64, Duration.ofMinutes(10)),
            OptionalLong::empty);

    @Test
    void withNothingPendingItIsTheLagBehindNow() {
        assertThat(horizon.target(NOW, OptionalLong.empty())).isEqualTo(IdGenerator.lowestIdAt(NOW.minusSeconds(2)));
    }

    @Test
    void itStaysJustBelowTheOldestPendingItem() {
        long pending = IdGenerator.lowestIdAt(NOW.minusSeconds(20)) + 5;
        assertThat(horizon.target(NOW, OptionalLong.of(pending))).isEqualTo(pending - 1);
    }

    @Test
    void aPendingItemNewerThanTheLagLeavesItAtTheLag() {
        long pending = IdGenerator.lowestIdAt(NOW.minusMillis(500));
        assertThat(horizon.target(NOW, OptionalLong.of(pending))).isEqualTo(IdGenerator.lowestIdAt(NOW.minusSeconds(2)));
    }

    @Test
    void aPendingItemOlderThanTheMaxLagHoldsItNoFurtherBack() {
        long stuck = IdGenerator.lowestIdAt(NOW.minusSeconds(600));
        assertThat(horizon.target(NOW, OptionalLong.of(stuck))).isEqualTo(IdGenerator.lowestIdAt(NOW.minusSeconds(60)));
    }
}
