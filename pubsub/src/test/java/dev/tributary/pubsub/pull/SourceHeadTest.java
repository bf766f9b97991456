package dev.tributary.pubsub.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a source's kept head can answer of a descending read, and when it must send it to MySQL. */
class SourceHeadTest {

    private static final List<Integer> TEXT = List.of(1);
    private static final List<Integer> ALL = List.of(1, 2);

    /** Items 100 down to 91; the even ones are of media bit 2. */
    private static SourceHeads.Head head(boolean whole) {
        long[] ids = new long[10];
        byte[] media = new byte[10];
        for (int i = 0; i < 10; i++) {
            ids[i] = 100 - i;
            media[i] = (byte) (ids[i] % 2 == 0 ? 2 : 1);
        }
        return new SourceHeads.Head("s", ids, media, whole);
    }

    private static PulledTable.Bounds bounds(long lowest, Long below, Long above) {
        return new PulledTable.Bounds(lowest, below, above, false);
    }

    @Test
    void aReadThatFillsItsLimitInsideTheHeadIsAnswered() {
        assertThat(head(false).serve(bounds(0, null, null), ALL, 3)).containsExactly(100L, 99L, 98L);
        assertThat(head(false).serve(bounds(0, 98L, null), ALL, 3)).as("max_id").containsExactly(97L, 96L, 95L);
        assertThat(head(false).serve(bounds(0, null, null), TEXT, 3)).as("media").containsExactly(99L, 97L, 95L);
    }

    @Test
    void aRangeThatEndsInsideTheHeadIsAnsweredShort() {
        assertThat(head(false).serve(bounds(97, null, null), ALL, 10)).as("the follow's first item").containsExactly(100L, 99L, 98L, 97L);
        assertThat(head(false).serve(bounds(0, null, 97L), ALL, 10)).as("since_id").containsExactly(100L, 99L, 98L);
    }

    @Test
    void aReadPastTheHeadsOldestItemGoesToMySqlUnlessTheHeadIsAll() {
        assertThat(head(false).serve(bounds(0, null, null), ALL, 11)).isNull();
        assertThat(head(false).serve(bounds(0, null, null), TEXT, 6)).isNull();
        assertThat(head(false).serve(bounds(91, null, null), ALL, 11)).as("91 is the head's last: the range ends with it").isNull();
        assertThat(head(true).serve(bounds(0, null, null), ALL, 11)).hasSize(10);
        assertThat(head(true).serve(bounds(0, null, null), TEXT, 6)).containsExactly(99L, 97L, 95L, 93L, 91L);
    }
}
