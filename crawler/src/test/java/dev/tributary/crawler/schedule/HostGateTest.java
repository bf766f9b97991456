package dev.tributary.crawler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

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
        HostGate gate = new HostGate(2, Duration.ZERO);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch twoInside = new CountDownLatch(2);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> visits = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                visits.add(pool.submit(() -> {
                    try (HostGate.Turn turn = gate.enter("example.org")) {
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
            try (HostGate.Turn other = gate.enter("other.example")) {
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
        HostGate gate = new HostGate(10, Duration.ofMillis(500), now::get);

        // Reservations made at the same instant are handed out 500 ms apart.
        HostGateProbe probe = new HostGateProbe(gate);
        assertThat(probe.waitFor("a.example")).isZero();
        assertThat(probe.waitFor("a.example")).isEqualTo(Duration.ofMillis(500).toNanos());
        assertThat(probe.waitFor("a.example")).isEqualTo(Duration.ofMillis(1000).toNanos());
        assertThat(probe.waitFor("b.example")).as("hosts are spaced independently").isZero();
        now.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(probe.waitFor("a.example")).as("after a quiet spell there is no wait").isZero();
    }

    /** Reads the wait a request would get, without sleeping through it. */
    private record HostGateProbe(HostGate gate) {
        long waitFor(String host) {
            return gate.reserve(host);
        }
    }
}
