package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.MediaType;
import org.junit.jupiter.api.Test;

class InboxEventTest {

    @Test
    void roundTripsEveryKind() {
        for (InboxEvent event : new InboxEvent[] {new InboxEvent(InboxEvent.Type.ITEM, 42), new InboxEvent(InboxEvent.Type.DELETE, 7),
                new InboxEvent(InboxEvent.Type.UNREAD, 0)}) {
            assertThat(InboxEvent.decode(event.encode())).isEqualTo(event);
        }
    }

    @Test
    void ignoresWhatItDoesNotUnderstand() {
        for (String noise : new String[] {null, "", "item", "item x", "item 99999999999999999999", "like 5", "unread 3", " item 1"}) {
            assertThat(InboxEvent.decode(noise)).as("'%s'", noise).isNull();
        }
    }

    @Test
    void channelsArePerPersonAndCountersCarryThePersonsBucketAsHashTag() {
        assertThat(InboxEvent.channel(12)).isEqualTo("tributary:inbox:{12}");
        assertThat(UnreadCounters.key(12)).isEqualTo("tributary:unread:v3:" + PersonSlots.tag(12) + ":12");
    }

    @Test
    void mediaMasksRoundTrip() {
        assertThat(MediaType.ofMask(MediaType.ALL)).isNull();
        assertThat(MediaType.maskOf(null)).isEqualTo(MediaType.ALL);
        assertThat(MediaType.ofMask(MediaType.maskOf(java.util.Set.of(MediaType.TEXT, MediaType.AUDIO))))
                .containsExactlyInAnyOrder(MediaType.TEXT, MediaType.AUDIO);
        assertThat(MediaType.parse("video")).contains(MediaType.VIDEO);
        assertThat(MediaType.parse("VIDEO")).isEmpty();
        assertThat(MediaType.parse("gif")).isEmpty();
    }
}
