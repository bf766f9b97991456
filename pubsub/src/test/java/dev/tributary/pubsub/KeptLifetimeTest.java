package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Kept pages and counts of people kept together are not all read again at the same moment. */
class KeptLifetimeTest {

    private static final Duration BOUND = Duration.ofMinutes(10);

    @Test
    void aLifetimeIsNeverLongerThanTheBoundNorShorterThanThreeQuartersOfIt() {
        for (long user = -1000; user <= 100_000; user++) {
            assertThat(KeptLifetime.of(user, BOUND)).isBetween(Duration.ofSeconds(450), BOUND);
        }
        assertThat(KeptLifetime.of(Long.MAX_VALUE, BOUND)).isBetween(Duration.ofSeconds(450), BOUND);
        assertThat(KeptLifetime.of(Long.MIN_VALUE, BOUND)).isBetween(Duration.ofSeconds(450), BOUND);
    }

    @Test
    void aPersonKeepsTheSameLifetime() {
        assertThat(KeptLifetime.of(4242, BOUND)).isEqualTo(KeptLifetime.of(4242, BOUND));
    }

    @Test
    void peopleWithConsecutiveIdsSpreadOverTheWholeRange() {
        // 1,000 people who signed up together: their lifetimes fall in every 15-second slot of the 150 s spread.
        Set<Long> slots = new TreeSet<>();
        for (long user = 500_000; user < 501_000; user++) {
            slots.add((BOUND.toMillis() - KeptLifetime.of(user, BOUND).toMillis()) / 15_000);
        }
        assertThat(slots).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void aFirstLifetimeIsNeverLongerThanTheBoundNorShorterThanAQuarterOfIt() {
        for (long user = -1000; user <= 100_000; user++) {
            assertThat(KeptLifetime.first(user, BOUND)).isBetween(Duration.ofSeconds(150), BOUND)
                    .isLessThanOrEqualTo(KeptLifetime.of(user, BOUND));
        }
    }

    @Test
    void firstLifetimesOfPeopleKeptTogetherSpreadOverThreeQuartersOfTheBound() {
        // 1,000 people kept at once (a restart): every 45-second slot of the 450 s spread is read again, none much more than another.
        long[] perSlot = new long[10];
        for (long user = 500_000; user < 501_000; user++) {
            perSlot[(int) ((BOUND.toMillis() - KeptLifetime.first(user, BOUND).toMillis()) / 45_000)]++;
        }
        assertThat(Arrays.stream(perSlot).boxed().toList()).allSatisfy(n -> assertThat(n).isBetween(80L, 120L));
    }

    @Test
    void aDrawnLifetimeIsHalfToAllOfTheBoundAndDrawnAnew() {
        Set<Long> seconds = new TreeSet<>();
        for (int i = 0; i < 10_000; i++) {
            Duration drawn = KeptLifetime.drawn(Duration.ofMinutes(1));
            assertThat(drawn).isBetween(Duration.ofSeconds(30), Duration.ofMinutes(1));
            seconds.add(drawn.toSeconds());
        }
        assertThat(seconds).as("every second of the half minute").hasSizeGreaterThanOrEqualTo(30);
    }
}
