package dev.tributary.crawler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.fetch.FetchFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HostGateTest {

    @Test
    void noMoreThanTheCapEnterOneHostAtOnce() throws Exception {
        HostGate gate = new HostGate(2, 100, Duration.ZERO);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch twoInside = new CountDownLatch(2);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> visits = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                visits.add(pool.submit(() -> {
                    try (HostGate.Turn turn = waitFor(gate, "example.org")) {
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        twoInside.countDown();
                        release.await(10, TimeUnit.SECONDS);
                        inside.decrementAndGet();
                    }
                    return null;
                }));
            }
            assertThat(twoInside.await(10, TimeUnit.SECONDS)).isTrue();
            // Another host is not held up by this one.
            try (HostGate.Turn other = waitFor(gate, "other.example")) {
                assertThat(inside.get()).isEqualTo(2);
            }
            release.countDown();
            for (Future<?> visit : visits) {
                visit.get(10, TimeUnit.SECONDS);
            }
        }
        assertThat(most.get()).isEqualTo(2);
    }

    @Test
    void startsToOneHostAreSpacedByTheDelay() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        HostGate gate = new HostGate(10, 100, Duration.ofMillis(500), now::get);

        assertThat(gate.startWait("a.example")).isZero();
        gate.started("a.example");
        assertThat(gate.startWait("a.example")).isEqualTo(Duration.ofMillis(500).toNanos());
        now.addAndGet(Duration.ofMillis(200).toNanos());
        assertThat(gate.startWait("a.example")).isEqualTo(Duration.ofMillis(300).toNanos());
        assertThat(gate.startWait("b.example")).as("hosts are spaced independently").isZero();
        now.addAndGet(Duration.ofMillis(300).toNanos());
        assertThat(gate.startWait("a.example")).isZero();
        gate.started("a.example");
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(gate.startWait("a.example")).as("after a quiet spell there is no wait").isZero();
    }

    @Test
    void namesPointingAtOneAddressShareItsBudget() throws Exception {
        HostGate gate = new HostGate(10, 2, Duration.ZERO);
        HostGate.Lookup victim = () -> "192.0.2.7:80";

        HostGate.Turn first = gate.enter("a.wild.example:80", victim, Duration.ZERO).turn();
        HostGate.Turn second = gate.enter("b.wild.example:80", victim, Duration.ZERO).turn();

        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(gate.enter("c.wild.example:80", victim, Duration.ZERO).admitted()).as("a third name, same address").isFalse();
        assertThat(gate.enter("c.wild.example:80", () -> "192.0.2.8:80", Duration.ZERO).admitted()).as("another address").isTrue();
        first.close();
        assertThat(gate.enter("d.wild.example:80", victim, Duration.ZERO).admitted()).as("after one left").isTrue();
        second.close();
    }

    @Test
    void aFullHostIsRefusedAtOnceWithoutALookupAndGivesItsSlotBackWhenTheAddressIsFull() throws Exception {
        HostGate gate = new HostGate(1, 1, Duration.ZERO);
        AtomicInteger lookups = new AtomicInteger();
        HostGate.Turn held = gate.enter("busy.example:443", () -> "198.51.100.1:443", Duration.ZERO).turn();

        assertThat(gate.enter("busy.example:443", () -> {
            lookups.incrementAndGet();
            return "198.51.100.2:443";
        }, Duration.ofMillis(20)).admitted()).isFalse();
        assertThat(lookups).hasValue(0);

        // Refused at the address: the host slot taken on the way must be given back.
        assertThat(gate.enter("other.example:443", () -> "198.51.100.1:443", Duration.ZERO).admitted()).isFalse();
        assertThat(gate.enter("other.example:443", () -> "198.51.100.3:443", Duration.ZERO).admitted()).isTrue();
        held.close();
    }

    @Test
    void aHostIsItsNameAndPortAsRobotsTxtCountsIt() {
        assertThat(HostGate.host(java.net.URI.create("https://Feeds.Example.org/a.xml"))).isEqualTo("feeds.example.org:443");
        assertThat(HostGate.host(java.net.URI.create("http://feeds.example.org/a.xml"))).isEqualTo("feeds.example.org:80");
        assertThat(HostGate.host(java.net.URI.create("http://127.0.0.1:8081/a.xml"))).isEqualTo("127.0.0.1:8081");
    }

    @Test
    void refusedCallersQueueAtThePaceTheHostHasBeenAnswering() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        HostGate gate = new HostGate(2, 100, Duration.ZERO, now::get);
        HostGate.Turn a = gate.enter("pit.example:80", () -> null, Duration.ZERO).turn();
        HostGate.Turn b = gate.enter("pit.example:80", () -> null, Duration.ZERO).turn();
        // Both requests take 8 s (a tar pit's timeout): the host answers one request per 4 s.
        now.addAndGet(Duration.ofSeconds(8).toNanos());
        a.close();
        b.close();
        for (int i = 0; i < 20; i++) {
            a = gate.enter("pit.example:80", () -> null, Duration.ZERO).turn();
            b = gate.enter("pit.example:80", () -> null, Duration.ZERO).turn();
            now.addAndGet(Duration.ofSeconds(8).toNanos());
            a.close();
            b.close();
        }
        a = gate.enter("pit.example:80", () -> null, Duration.ZERO).turn();
        b = gate.enter("pit.example:80", () -> null, Duration.ZERO).turn();

        List<Duration> retries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HostGate.Admission refused = gate.enter("pit.example:80", () -> null, Duration.ZERO);
            assertThat(refused.admitted()).isFalse();
            retries.add(refused.retryIn());
        }

        // Spread one request's share of the slots apart, close to 4 s once the host is timed.
        assertThat(retries.get(0)).isBetween(Duration.ofMillis(3_500), Duration.ofMillis(4_000));
        assertThat(retries.get(1)).isEqualTo(retries.get(0).multipliedBy(2));
        assertThat(retries.get(2)).isEqualTo(retries.get(0).multipliedBy(3));
        assertThat(gate.enter("quick.example:80", () -> null, Duration.ZERO).admitted()).as("other hosts are not held up").isTrue();
        a.close();
        b.close();
    }

    @Test
    void aDelayGrownAfterTroubleHandsCallersBackInsteadOfHoldingTheirSlots() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        HostGate.Rules rules = new HostGate.Rules(2, 16, Duration.ofSeconds(1), Duration.ZERO, Duration.ofMinutes(1), 4,
                Duration.ofMinutes(10));
        HostGate gate = new HostGate(rules, rules, 100, Duration.ofMinutes(10), now::get);
        HostGate.Turn first = gate.enter("sick.example:80", () -> null, Duration.ZERO).turn();
        now.addAndGet(Duration.ofMillis(10).toNanos());
        first.answered(new FetchFailure(FailureReason.SERVER_ERROR, "HTTP 500", 500, null, null));
        first.close();
        assertThat(gate.delay("sick.example:80")).as("doubled from the configured second").isEqualTo(Duration.ofSeconds(2));

        HostGate.Admission refused = gate.enter("sick.example:80", () -> null, Duration.ZERO);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryIn()).isGreaterThanOrEqualTo(Duration.ofMillis(1_990));

        now.addAndGet(Duration.ofSeconds(2).toNanos());
        HostGate.Admission later = gate.enter("sick.example:80", () -> null, Duration.ZERO);
        assertThat(later.admitted()).isTrue();
        later.turn().close();
    }

    @Test
    void aRetryAfterPausesTheHostButNotOtherNamesAtItsAddress() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        HostGate.Rules rules = new HostGate.Rules(2, 16, Duration.ZERO, Duration.ZERO, Duration.ofMinutes(1), 4,
                Duration.ofMinutes(10));
        HostGate gate = new HostGate(rules, rules, 100, Duration.ofMinutes(10), now::get);
        HostGate.Lookup cdn = () -> "203.0.113.9:443";
        HostGate.Turn turn = gate.enter("busy.example:443", cdn, Duration.ZERO).turn();
        now.addAndGet(Duration.ofMillis(10).toNanos());
        turn.answered(new FetchFailure(FailureReason.RATE_LIMITED, "HTTP 429", 429, Duration.ofMinutes(2), null));
        turn.close();

        HostGate.Admission paused = gate.enter("busy.example:443", cdn, Duration.ZERO);
        assertThat(paused.admitted()).isFalse();
        assertThat(paused.retryIn()).isGreaterThanOrEqualTo(Duration.ofMinutes(2).minusMillis(10));
        HostGate.Admission neighbour = gate.enter("quiet.example:443", cdn, Duration.ZERO);
        assertThat(neighbour.admitted()).as("another site on the same CDN address").isTrue();
        neighbour.turn().close();
    }

    /**
     * Issue 52: one person's 4,000 tar-pit feeds were refused at a host one after another and
     * queued there; another person's feed on the same host was then sent back behind all of them,
     * hours out. Lanes share the host round-robin: the other person's feed comes back one place
     * from now, and each person's own refusals still spread at the host's pace.
     */
    @Test
    void anotherPersonsFeedIsNotQueuedBehindOnePersonsPile() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        HostGate gate = new HostGate(1, 100, Duration.ZERO, now::get);
        long pileOwner = 7;
        long otherReader = 8;
        // The host's one slot is held by a tar pit that answers after 30 s, and it learnt that.
        for (int i = 0; i < 4; i++) {
            HostGate.Turn pit = gate.enter("pit.example:80", pileOwner, () -> null, Duration.ZERO).turn();
            now.addAndGet(Duration.ofSeconds(30).toNanos());
            pit.answered(new FetchFailure(FailureReason.TIMEOUT, "timed out", null, null, null));
            pit.close();
        }
        HostGate.Turn held = gate.enter("pit.example:80", pileOwner, () -> null, Duration.ZERO).turn();
        assertThat(held).isNotNull();

        Duration pileLast = Duration.ZERO;
        for (int i = 0; i < 4_000; i++) {
            HostGate.Admission refused = gate.enter("pit.example:80", pileOwner, () -> null, Duration.ZERO);
            assertThat(refused.admitted()).isFalse();
            pileLast = refused.retryIn();
        }
        HostGate.Admission other = gate.enter("pit.example:80", otherReader, () -> null, Duration.ZERO);
        HostGate.Admission shared = gate.enter("pit.example:80", HostGate.SHARED, () -> null, Duration.ZERO);
        HostGate.Admission otherAgain = gate.enter("pit.example:80", otherReader, () -> null, Duration.ZERO);

        // One place: what a request typically takes there (about 20 s now) over its one slot; the pile holds 4,000.
        Duration place = pileLast.dividedBy(4_000);
        assertThat(pileLast).as("the pile spreads over its own lane at the host's pace").isGreaterThan(Duration.ofHours(3));
        assertThat(other.admitted()).isFalse();
        assertThat(other.retryIn()).as("one place from now, not behind the pile").isEqualTo(place);
        assertThat(shared.retryIn()).as("a feed with several readers neither").isEqualTo(place);
        assertThat(otherAgain.retryIn()).as("the same person's next feed queues behind their first").isEqualTo(place.multipliedBy(2));
        held.close();
    }

    private static HostGate.Turn waitFor(HostGate gate, String host) throws InterruptedException {
        return gate.enter(host, () -> null, Duration.ofSeconds(30)).turn();
    }
}
