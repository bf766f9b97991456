package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Counts summed by source and media type, for ids that share a hash bin as much as for any. */
class UnreadTallyTest {

    /** Ids as the generator makes them one millisecond apart: equal in every bit Long.hashCode keeps low. */
    private static long idAt(int millis) {
        return ((1_700_000_000_000L + millis) << 22) | (7L << 12);
    }

    @Test
    void sumsEachSourceOverItsMediaTypesInAnyOrderAndLeavesOutWhatIsNotPositive() {
        UnreadTally tally = new UnreadTally();
        for (int i = 199; i >= 0; i--) {
            tally.add(idAt(i), MediaType.TEXT, 1);
        }
        tally.add(idAt(3), MediaType.IMAGE, 2).add(idAt(150), MediaType.LINK, 4).add(idAt(7), MediaType.TEXT, -1);

        Unread unread = tally.build(9);

        assertThat(unread.total()).isEqualTo(205);
        assertThat(unread.bySource()).hasSize(199).doesNotContainKey(idAt(7));
        assertThat(unread.bySource()).containsEntry(idAt(3), 3L).containsEntry(idAt(150), 5L).containsEntry(idAt(0), 1L);
        assertThat(unread.byMedia()).isEqualTo(Map.of(MediaType.TEXT, 199L, MediaType.IMAGE, 2L, MediaType.LINK, 4L));
        assertThat(unread.trimmedUnread()).isEqualTo(9);
    }

    @Test
    void addsGroupsToCountsAlreadySummed() {
        Unread pushed = new Unread(3, Map.of(1L, 2L, 2L, 1L), Map.of(MediaType.TEXT, 3L), 4);

        Unread both = new UnreadTally().addAll(pushed).add(2L, MediaType.VIDEO, 5).add(8L, MediaType.TEXT, 1).build(pushed.trimmedUnread());

        assertThat(both).isEqualTo(new Unread(9, Map.of(1L, 2L, 2L, 6L, 8L, 1L), Map.of(MediaType.TEXT, 4L, MediaType.VIDEO, 5L), 4));
        assertThat(new UnreadTally().build(0)).isEqualTo(new Unread(0, Map.of(), Map.of()));
    }
}
