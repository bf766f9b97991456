package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.Transactions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Idempotent inbox writes in both shapes: one item to many people (fan-out), many items to one (back-fill). */
@WithEmbeddedPubsub
class InboxDeliveryTest {

    @Autowired InboxTable inbox;
    @Autowired Transactions tx;
    @Autowired Fixtures fixtures;

    private static InboxRow row(long user, long item) {
        return new InboxRow(user, item, 1, MediaType.TEXT, false);
    }

    @Test
    void aBackFillOverlappingAnEarlierDeliveryStillDeliversTheOtherItems() {
        long reader = fixtures.person();
        tx.write("fan-out of item 2", status -> inbox.deliver(List.of(row(reader, 2)), status));

        List<InboxRow> delivered = tx.write("back-fill",
                status -> inbox.deliver(List.of(row(reader, 3), row(reader, 2), row(reader, 1)), status).entries());

        assertThat(delivered).extracting(InboxRow::itemId).containsExactly(3L, 1L);
        assertThat(inbox.find(reader, 1)).isPresent();
        assertThat(inbox.find(reader, 3)).isPresent();
    }

    @Test
    void aFanOutOverlappingAnEarlierDeliveryReachesTheOthers() {
        long first = fixtures.person();
        long second = fixtures.person();
        long third = fixtures.person();
        tx.write("back-fill of one reader", status -> inbox.deliver(List.of(row(second, 7)), status));

        List<InboxRow> delivered = tx.write("fan-out",
                status -> inbox.deliver(List.of(row(first, 7), row(second, 7), row(third, 7)), status).entries());

        assertThat(delivered).extracting(InboxRow::userId).containsExactly(first, third);
        assertThat(inbox.find(third, 7)).isPresent();
    }
}
