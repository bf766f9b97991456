package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The trim queue gathers people on the node and hands them to the shared Redis set. */
@WithEmbeddedPubsub
class InboxTrimQueueTest {

    @Autowired InboxTrimQueue queue;
    @Autowired Fixtures fixtures;
    @Autowired StringRedisTemplate redis;

    @Test
    void peopleAddedOnTheNodeReachTheSharedSetWithinSecondsWithoutATake() {
        long person = fixtures.person();
        queue.add(List.of(person));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Boolean.TRUE.equals(redis.opsForSet().isMember(InboxTrimQueue.KEY, Long.toString(person))));
    }

    @Test
    void aTakeIncludesPeopleGatheredSinceTheLastFlushEachOnceHoweverOftenAdded() {
        long person = fixtures.person();
        for (int delivery = 0; delivery < 50; delivery++) {
            queue.add(List.of(person));
        }

        List<Long> taken = new ArrayList<>();
        // Other tests' people may be queued too: take until the queue is empty.
        for (int pass = 0; pass < 1000 && queue.size() > 0; pass++) {
            taken.addAll(queue.take(100));
        }

        assertThat(taken).containsOnlyOnce(person);
        assertThat(queue.size()).isZero();
    }
}
