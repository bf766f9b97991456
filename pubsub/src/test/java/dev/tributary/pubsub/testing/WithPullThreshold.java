package dev.tributary.pubsub.testing;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.inbox.InboxParts;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link WithEmbeddedPubsub}'s context with {@code tributary.fanout.pull-threshold=3}: a source
 * followed by three people is pulled, and goes back to push at two (below 80 % of three). A
 * person reads at most two pulled sources (past them a source is pushed to them). A
 * context of its own (on the same embedded servers), since the threshold changes what publishing does.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = {PubsubTestApplication.class, Fixtures.class, Fanout.class, InboxParts.class}, properties = {
        "tributary.fanout.workers=0",
        "tributary.fanout.batch-size=7",
        "tributary.fanout.lease-ttl=1s",
        "tributary.fanout.backfill=3",
        "tributary.fanout.split-size=10",
        "tributary.fanout.pull-threshold=3",
        "tributary.fanout.max-pulled-sources=2",
        "tributary.timeline.max-entries=30",
        "tributary.inbox.max-entries=60",
        "tributary.inbox.min-unread-per-source=2",
        "tributary.storage.cleaner.enabled=false"})
public @interface WithPullThreshold {
}
