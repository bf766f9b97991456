package dev.tributary.pubsub.fanout;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.PubsubTestApplication;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two app instances on one database, each with its own pool of fan-out workers, share the tasks
 * that both publish: every inbox gets every item exactly once and the counts are exact.
 */
class TwoWorkerPoolsTest {

    private static ConfigurableApplicationContext instance() {
        return new SpringApplicationBuilder(PubsubTestApplication.class, Fixtures.class)
                .web(WebApplicationType.NONE)
                .properties("tributary.fanout.workers=2", "tributary.fanout.batch-size=5", "tributary.fanout.claim-size=2",
                        "tributary.fanout.poll-interval=100ms", "tributary.storage.cleaner.enabled=false")
                .run();
    }

    @Test
    void twoInstancesShareTheFanoutWithoutLosingOrDoublingAnEntry() {
        try (ConfigurableApplicationContext first = instance(); ConfigurableApplicationContext second = instance()) {
            Fixtures fixtures = first.getBean(Fixtures.class);
            long feed = fixtures.feed();
            List<Long> readers = fixtures.people(23);
            fixtures.subscribe(feed, readers);

            List<Long> published = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ConfigurableApplicationContext by = i % 2 == 0 ? first : second;
                published.addAll(by.getBean(Publisher.class).publish(feed,
                        List.of(entry("shared" + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)))).created());
            }
            FanoutTasks tasks = first.getBean(FanoutTasks.class);
            Await.until("every fan-out task done", Duration.ofSeconds(60), () -> tasks.pending() == 0);

            for (long reader : readers) {
                assertThat(fixtures.inbox(reader)).as("reader %d", reader).containsExactlyElementsOf(published);
                assertThat(second.getBean(HomeFeed.class).unread(reader)).isEqualTo(fixtures.truth(reader));
            }
            assertThat(first.getBean(FanoutWorkers.class).tasksRun()).as("first pool").isPositive();
            assertThat(second.getBean(FanoutWorkers.class).tasksRun()).as("second pool").isPositive();
        }
    }
}
