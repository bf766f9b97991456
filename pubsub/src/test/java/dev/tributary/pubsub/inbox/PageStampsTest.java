package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.Transactions;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A person's page stamp exists once someone reads it, and from then on every change to their
 * inbox moves it; deliveries to a person nobody reads create no key.
 */
@WithEmbeddedPubsub
class PageStampsTest {

    @Autowired Inbox inbox;
    @Autowired Transactions tx;
    @Autowired Fixtures fixtures;
    @Autowired StringRedisTemplate redis;

    private String key(long person) {
        return "tributary:tl:" + PersonSlots.tag(person) + ":" + person;
    }

    private TimelineStamps stamps(long person) {
        return inbox.stamps(person, List.of(), id -> List.of(), List.of());
    }

    private void deliver(long person) {
        long item = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50);
        tx.write("deliver", status -> inbox.deliverItems(List.of(new InboxRow(person, item, 1, MediaType.TEXT, false)), status));
    }

    @Test
    void aDeliveryToSomeoneNobodyReadsCreatesNoStamp() {
        long person = fixtures.person();
        deliver(person);
        assertThat(redis.hasKey(key(person))).isFalse();
    }

    @Test
    void aReadDrawsTheStampAndEveryLaterDeliveryMovesIt() {
        long person = fixtures.person();
        deliver(person);
        TimelineStamps first = stamps(person);
        assertThat(first.person()).isNotNull();
        assertThat(stamps(person)).isEqualTo(first);

        deliver(person);
        TimelineStamps second = stamps(person);
        assertThat(second.person()).isNotEqualTo(first.person());

        redis.delete(key(person)); // expired, or lost with Redis
        deliver(person);
        TimelineStamps third = stamps(person);
        assertThat(third.person()).as("drawn again, unlike any page kept before").isNotNull().isNotEqualTo(second.person());
        deliver(person);
        assertThat(stamps(person).person()).isNotEqualTo(third.person());
    }
}
