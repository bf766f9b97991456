package dev.tributary.pubsub.testing;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.inbox.InboxParts;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * One Spring context for the pub/sub integration tests (same classes and properties, so it is
 * cached): embedded MariaDB and Redis, no background workers (tests drive fan-out and trimming
 * themselves through {@link Fanout}), small batches so that paging is exercised, a short lease
 * so that a crashed worker's task is taken over quickly, and a window of 30 entries. The count
 * horizon stays an hour behind unless a test raises it ({@code InboxParts.raiseCountHorizonTo}), so
 * a test decides which batches move counters, and a read then folds every entry it can into the
 * person's counters (the default waits for 16), so those tests go through folds.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = {PubsubTestApplication.class, Fixtures.class, Fanout.class, InboxParts.class}, properties = {
        "tributary.fanout.workers=0",
        "tributary.fanout.batch-size=7",
        "tributary.fanout.lease-ttl=1s",
        "tributary.fanout.backfill=3",
        "tributary.fanout.split-size=10",
        "tributary.timeline.max-entries=30",
        "tributary.timeline.count-fold-at=1",
        "tributary.timeline.count-horizon-lag=1h",
        "tributary.timeline.count-horizon-max-lag=1h",
        "tributary.timeline.count-promote-at=8",
        "tributary.inbox.max-entries=60",
        "tributary.inbox.min-unread-per-source=2",
        "tributary.storage.cleaner.enabled=false"})
public @interface WithEmbeddedPubsub {
}
