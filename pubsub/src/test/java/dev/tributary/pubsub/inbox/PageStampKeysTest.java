package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stamp keys a page's read writes as bytes are the very keys the stamps' moves write as strings. */
class PageStampKeysTest {

    private static final byte[] ITEM = "tributary:tl:item:".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STORY = "tributary:tl:story:".getBytes(StandardCharsets.UTF_8);

    @Test
    void anIdWrittenAsBytesSpellsTheKeyItsStringDoes() {
        long[] ids = {0, 1, 9, 10, 99, 100, 123_456_789, 1_000_000_000_000L, 7_412_345_678_901_234_567L, Long.MAX_VALUE,
                -1, Long.MIN_VALUE};
        for (long id : ids) {
            assertThat(new String(PageStamps.key(ITEM, id), StandardCharsets.UTF_8)).isEqualTo(PageStamps.itemKey(id));
            assertThat(new String(PageStamps.key(STORY, id), StandardCharsets.UTF_8)).isEqualTo(PageStamps.storyKey(id));
        }
    }

    @Test
    void theKeyIsExactlyItsLengthAndLeavesThePrefixAlone() {
        byte[] prefix = ITEM.clone();

        byte[] key = PageStamps.key(prefix, 42);

        assertThat(key).hasSize(ITEM.length + 2);
        assertThat(prefix).isEqualTo(ITEM);
    }
}
