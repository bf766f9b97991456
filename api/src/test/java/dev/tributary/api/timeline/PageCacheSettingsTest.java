package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The page cache's memory bounds are refused at start-up when they make no sense. */
class PageCacheSettingsTest {

    @Test
    void tooLittleMemoryForItemsOrANegativeBoundForCountsIsRefused() {
        assertThatThrownBy(() -> new PageCacheSettings(true, 100, DataSize.ofKilobytes(512), DataSize.ofMegabytes(32)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("item-bytes");
        assertThatThrownBy(() -> new PageCacheSettings(true, 100, DataSize.ofMegabytes(128), DataSize.ofBytes(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count-bytes");
    }

    @Test
    void noMemoryForCountsIsAllowedAndKeepsNone() {
        assertThat(new PageCacheSettings(true, 100, DataSize.ofMegabytes(128), DataSize.ofBytes(0)).countBytes().toBytes()).isZero();
    }
}
