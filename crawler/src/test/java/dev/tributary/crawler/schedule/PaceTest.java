package dev.tributary.crawler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchResult;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The AIMD controller behind {@link HostGate}, on a clock the test moves. */
class PaceTest {

    private static final long MS = 1_000_000L;
    private static final HostGate.Rules RULES = new HostGate.Rules(2, 16, Duration.ofSeconds(1), Duration.ZERO,
            Duration.ofSeconds(60), 4, Duration.ofMinutes(10));

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void cleanFastAnswersEarnConcurrencyUpToTheCapAndShrinkTheDelayToTheFloor() throws Exception {
        Pace pace = new Pace(RULES);
        assertThat(pace.slots()).isEqualTo(2);

        clean(pace, 10);
        assertThat(pace.slots()).as("one more per clean answer at first").isEqualTo(3);
        assertThat(pace.delayNanos()).as("the delay shrinks to what the answer took").isEqualTo(10 * MS);
        clean(pace, 50);
        assertThat(pace.delayNanos()).as("and halves").isEqualTo(5 * MS);
        for (int i = 0; i < 40; i++) {
            clean(pace, 10);
        }
        assertThat(pace.slots()).as("capped").isEqualTo(16);
        assertThat(pace.delayNanos()).as("down to the minimum delay").isZero();
    }

    @Test
    void troubleHalvesConcurrencyOncePerWindowDownToOneAndGrowsTheDelayToItsCap() throws Exception {
        Pace pace = grown(new Pace(RULES));
        assertThat(pace.slots()).isEqualTo(16);

        // Three requests in flight when the host fails: one cut for the lot.
        long start = now.get();
        for (int i = 0; i < 3; i++) {
            assertThat(pace.acquire(0, now::get)).isTrue();
        }
        now.addAndGet(10 * MS);
        pace.answered(HostGate.Answer.TROUBLE, start, now.get(), 0);
        pace.answered(HostGate.Answer.TROUBLE, start, now.get(), 0);
        pace.answered(HostGate.Answer.THROTTLED, start, now.get(), 0);
        assertThat(pace.slots()).isEqualTo(8);
        assertThat(pace.delayNanos()).as("at least the configured delay again").isEqualTo(1_000 * MS);

        for (int expected : new int[] {4, 2, 1, 1}) {
            fail(pace, HostGate.Answer.TROUBLE);
            assertThat(pace.slots()).isEqualTo(expected);
        }
        for (int i = 0; i < 10; i++) {
            fail(pace, HostGate.Answer.THROTTLED);
        }
        assertThat(pace.slots()).as("floor").isEqualTo(1);
        assertThat(pace.delayNanos()).as("capped").isEqualTo(60_000 * MS);
    }

    @Test
    void afterTroubleConcurrencyGrowsByOnePerWindowOfCleanAnswers() throws Exception {
        Pace pace = grown(new Pace(RULES));
        fail(pace, HostGate.Answer.TROUBLE);
        assertThat(pace.slots()).isEqualTo(8);
        for (int i = 0; i < 7; i++) {
            clean(pace, 10);
        }
        assertThat(pace.slots()).as("7 of 8 answers of a window").isEqualTo(8);
        clean(pace, 10);
        clean(pace, 10);
        assertThat(pace.slots()).isEqualTo(9);
    }

    @Test
    void anAnswerFarSlowerThanTheHostsUsualCountsAsTrouble() throws Exception {
        Pace pace = new Pace(RULES);
        for (int i = 0; i < 10; i++) {
            clean(pace, 300);
        }
        int before = pace.slots();
        clean(pace, 900);
        assertThat(pace.slots()).as("three times slower is fine").isEqualTo(before + 1);
        clean(pace, 6_000);
        assertThat(pace.slots()).as("20 times slower").isEqualTo((before + 1) / 2);

        // A host whose answers take twenty times longer than usual from now on: the usual follows,
        // and after a few cuts its answers are no longer slow.
        int cuts = 0;
        for (int i = 0; i < 40; i++) {
            int slots = pace.slots();
            now.addAndGet(MS);
            clean(pace, 6_000);
            cuts += pace.slots() < slots ? 1 : 0;
        }
        assertThat(cuts).isBetween(1, 10);
        assertThat(pace.slots()).as("growing again").isGreaterThan(1);
    }

    @Test
    void retryAfterPausesTheHostForAsLongAsItSaysUpToTheCap() throws Exception {
        Pace pace = new Pace(RULES);
        assertThat(pace.acquire(0, now::get)).isTrue();
        long start = now.get();
        now.addAndGet(10 * MS);
        pace.answered(HostGate.Answer.THROTTLED, start, now.get(), Duration.ofSeconds(30).toNanos());

        assertThat(pace.acquire(Duration.ofSeconds(1).toNanos(), now::get)).as("paused, slots free or not").isFalse();
        assertThat(pace.queue(now.get())).as("refused callers come back after the pause")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(30).toNanos());
        now.addAndGet(Duration.ofSeconds(31).toNanos());
        assertThat(pace.acquire(0, now::get)).isTrue();

        // A Retry-After of a day pauses the host no longer than the cap (the feed waits it out alone).
        long again = now.get();
        now.addAndGet(10 * MS);
        pace.answered(HostGate.Answer.THROTTLED, again, now.get(), Duration.ofDays(1).toNanos());
        now.addAndGet(Duration.ofMinutes(10).toNanos());
        assertThat(pace.acquire(0, now::get)).isTrue();
    }

    @Test
    void aFixedPaceNeverAdapts() throws Exception {
        Pace pace = new Pace(HostGate.Rules.fixed(2, Duration.ofSeconds(1)));
        for (int i = 0; i < 10; i++) {
            clean(pace, 10);
        }
        fail(pace, HostGate.Answer.TROUBLE);
        assertThat(pace.slots()).isEqualTo(2);
        assertThat(pace.delayNanos()).isEqualTo(1_000 * MS);
    }

    @Test
    void outcomesAreReadAsTheHostsHealth() {
        URI url = URI.create("https://example.org/feed");
        assertThat(HostGate.Answer.of(new FetchResult(200, false, null, null, null, null, url, null, null, new byte[0], null)))
                .isEqualTo(HostGate.Answer.CLEAN);
        assertThat(HostGate.Answer.of(failure(FailureReason.RATE_LIMITED, 429))).isEqualTo(HostGate.Answer.THROTTLED);
        assertThat(HostGate.Answer.of(failure(FailureReason.SERVER_ERROR, 503))).isEqualTo(HostGate.Answer.THROTTLED);
        assertThat(HostGate.Answer.of(failure(FailureReason.SERVER_ERROR, 500))).isEqualTo(HostGate.Answer.TROUBLE);
        assertThat(HostGate.Answer.of(failure(FailureReason.TIMEOUT, null))).isEqualTo(HostGate.Answer.TROUBLE);
        assertThat(HostGate.Answer.of(failure(FailureReason.CONNECT, null))).isEqualTo(HostGate.Answer.TROUBLE);
        assertThat(HostGate.Answer.of(failure(FailureReason.NOT_FOUND, 404))).isEqualTo(HostGate.Answer.CLEAN);
        assertThat(HostGate.Answer.of(failure(FailureReason.DNS, null))).isEqualTo(HostGate.Answer.UNKNOWN);
    }

    @Test
    void theStateIsBoundedWhateverTheNumberOfHosts() throws Exception {
        HostGate gate = new HostGate(RULES, RULES, 100, Duration.ofMinutes(10), now::get);
        for (int i = 0; i < 5_000; i++) {
            String address = "192.0.2." + (i % 250) + ":80";
            gate.enter("host-" + i + ".example:80", () -> address, Duration.ZERO).turn().close();
        }
        assertThat(gate.remembered()).isLessThanOrEqualTo(100);
    }

    private static FetchFailure failure(FailureReason reason, Integer status) {
        return new FetchFailure(reason, "x", status, null, null);
    }

    /** Cleanly answers enough requests to reach the cap. */
    private Pace grown(Pace pace) throws Exception {
        for (int i = 0; i < 20; i++) {
            clean(pace, 10);
        }
        return pace;
    }

    private void clean(Pace pace, long millis) throws Exception {
        assertThat(pace.acquire(0, now::get)).isTrue();
        long start = now.get();
        now.addAndGet(millis * MS);
        pace.answered(HostGate.Answer.CLEAN, start, now.get(), 0);
    }

    /** A request that starts after everything before and fails. */
    private void fail(Pace pace, HostGate.Answer answer) throws Exception {
        now.addAndGet(MS);
        assertThat(pace.acquire(0, now::get)).isTrue();
        long start = now.get();
        now.addAndGet(10 * MS);
        pace.answered(answer, start, now.get(), 0);
    }
}
