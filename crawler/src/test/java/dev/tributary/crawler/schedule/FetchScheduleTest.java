package dev.tributary.crawler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FetchScheduleTest {

    private static final Duration MIN = Duration.ofMinutes(5);
    private static final Duration MAX = Duration.ofHours(24);
    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

    private final FetchSchedule exact = new FetchSchedule(MIN, MAX, Duration.ofHours(24), 0, new Random(1));

    @Test
    void aFeedThatPublishesHourlyIsFetchedHourly() {
        List<Instant> hourly = IntStream.range(0, 20).mapToObj(i -> NOW.minus(Duration.ofHours(i))).toList();

        FetchSchedule.Plan plan = exact.afterSuccess(MIN, true, hourly, FetchSchedule.Hints.NONE, false);

        assertThat(plan.interval()).isEqualTo(Duration.ofHours(1));
        assertThat(plan.delay()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void theRateIsClampedToTheBounds() {
        List<Instant> everyMinute = IntStream.range(0, 5).mapToObj(i -> NOW.minus(Duration.ofMinutes(i))).toList();
        List<Instant> monthly = IntStream.range(0, 5).mapToObj(i -> NOW.minus(Duration.ofDays(30L * i))).toList();

        assertThat(exact.afterSuccess(MIN, true, everyMinute, FetchSchedule.Hints.NONE, false).interval()).isEqualTo(MIN);
        assertThat(exact.afterSuccess(MIN, true, monthly, FetchSchedule.Hints.NONE, false).interval()).isEqualTo(MAX);
    }

    @Test
    void aQuietFeedIsAskedLessOftenUntilTheMaximum() {
        Duration interval = MIN;
        for (int i = 0; i < 5; i++) {
            Duration next = exact.afterSuccess(interval, false, List.of(), FetchSchedule.Hints.NONE, false).interval();
            assertThat(next).isGreaterThan(interval);
            interval = next;
        }
        for (int i = 0; i < 30; i++) {
            interval = exact.afterSuccess(interval, false, List.of(), FetchSchedule.Hints.NONE, false).interval();
        }
        assertThat(interval).isEqualTo(MAX);
    }

    @Test
    void newEntriesWithoutUsableDatesHalveTheInterval() {
        List<Instant> sameInstant = List.of(NOW, NOW, NOW);

        assertThat(exact.afterSuccess(Duration.ofHours(4), true, sameInstant, FetchSchedule.Hints.NONE, false).interval())
                .isEqualTo(Duration.ofHours(2));
    }

    @Test
    void freshnessHintsAreAFloor() {
        List<Instant> everyMinute = IntStream.range(0, 5).mapToObj(i -> NOW.minus(Duration.ofMinutes(i))).toList();

        assertThat(exact.afterSuccess(MIN, true, everyMinute,
                new FetchSchedule.Hints(Duration.ofMinutes(30), null, null), false).interval()).isEqualTo(Duration.ofMinutes(30));
        assertThat(exact.afterSuccess(MIN, true, everyMinute,
                new FetchSchedule.Hints(null, Duration.ofHours(2), null), false).interval()).isEqualTo(Duration.ofHours(2));
        assertThat(exact.afterSuccess(MIN, true, everyMinute,
                new FetchSchedule.Hints(Duration.ofMinutes(10), Duration.ofMinutes(20), Duration.ofHours(3)), false)
                .interval()).isEqualTo(Duration.ofHours(3));
        assertThat(exact.afterSuccess(MIN, true, everyMinute,
                new FetchSchedule.Hints(Duration.ofDays(30), null, null), false).interval())
                .as("a hint beyond the maximum is capped").isEqualTo(MAX);
    }

    @Test
    void aPushedFeedIsPolledOnlyAtTheMaximum() {
        List<Instant> hourly = IntStream.range(0, 5).mapToObj(i -> NOW.minus(Duration.ofHours(i))).toList();

        assertThat(exact.afterSuccess(MIN, true, hourly, FetchSchedule.Hints.NONE, true).interval()).isEqualTo(MAX);
    }

    @Test
    void errorsBackOffExponentiallyUpToTheCap() {
        FetchSchedule capped = new FetchSchedule(MIN, MAX, Duration.ofHours(6), 0, new Random(1));

        assertThat(capped.afterError(MIN, 1, null).delay()).isEqualTo(MIN);
        assertThat(capped.afterError(MIN, 2, null).delay()).isEqualTo(Duration.ofMinutes(10));
        assertThat(capped.afterError(MIN, 3, null).delay()).isEqualTo(Duration.ofMinutes(20));
        assertThat(capped.afterError(MIN, 7, null).delay()).isEqualTo(Duration.ofHours(5).plusMinutes(20));
        assertThat(capped.afterError(MIN, 8, null).delay()).isEqualTo(Duration.ofHours(6));
        assertThat(capped.afterError(MIN, 1_000, null).delay()).isEqualTo(Duration.ofHours(6));
        assertThat(capped.afterError(Duration.ofHours(2), 3, null).interval())
                .as("the success interval is kept for when the feed recovers").isEqualTo(Duration.ofHours(2));
    }

    @Test
    void retryAfterIsHonouredWithinTheCap() {
        assertThat(exact.afterError(MIN, 1, Duration.ofHours(3)).delay()).isEqualTo(Duration.ofHours(3));
        assertThat(exact.afterError(MIN, 5, Duration.ofSeconds(1)).delay())
                .as("a short Retry-After does not cut the backoff").isEqualTo(Duration.ofMinutes(80));
        assertThat(exact.afterError(MIN, 1, Duration.ofDays(400)).delay()).isEqualTo(Duration.ofHours(24));
    }

    @Test
    void jitterSpreadsDelaysWithinItsFraction() {
        FetchSchedule jittery = new FetchSchedule(MIN, MAX, MAX, 0.1, new Random(42));
        List<Instant> hourly = IntStream.range(0, 5).mapToObj(i -> NOW.minus(Duration.ofHours(i))).toList();

        List<Duration> delays = IntStream.range(0, 200)
                .mapToObj(i -> jittery.afterSuccess(MIN, true, hourly, FetchSchedule.Hints.NONE, false).delay()).toList();

        assertThat(delays).allSatisfy(delay -> assertThat(delay).isBetween(Duration.ofMinutes(54), Duration.ofMinutes(66)));
        assertThat(delays.stream().distinct().count()).as("not in lockstep").isGreaterThan(100);
        assertThat(jittery.afterError(MIN, 3, null).delay()).isBetween(Duration.ofMinutes(18), Duration.ofMinutes(22));
    }
}
