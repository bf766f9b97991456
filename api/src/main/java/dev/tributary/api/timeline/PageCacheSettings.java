package dev.tributary.api.timeline;

import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the newest-page cache of home timelines ({@code tributary.api.page-cache.*}).
 * @param enabled off, every request reads MySQL (a switch for when memory is short; answers are the same)
 * @param people newest pages kept per node (one per person and page size), each about 1 KB
 * @param itemBytes memory for the items' rendered JSON, shared by every page on the node
 * @param countBytes memory for people's unread counts kept as JSON (about 1 KB a person)
 */
@ConfigurationProperties("tributary.api.page-cache")
@Validated
public record PageCacheSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("100000") @Min(1) int people,
        @DefaultValue("128MB") DataSize itemBytes,
        @DefaultValue("32MB") DataSize countBytes) {

    public PageCacheSettings {
        if (itemBytes.toBytes() < 1024 * 1024) {
            throw new IllegalArgumentException("tributary.api.page-cache.item-bytes must be at least 1MB, not " + itemBytes);
        }
        if (countBytes.toBytes() < 0) {
            throw new IllegalArgumentException("tributary.api.page-cache.count-bytes must not be negative, not " + countBytes);
        }
    }
}
