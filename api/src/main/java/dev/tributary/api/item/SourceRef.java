package dev.tributary.api.item;

import org.jspecify.annotations.Nullable;

/** A source as embedded in an item: {@code {id, kind, title, url}}. */
public record SourceRef(String id, String kind, @Nullable String title, @Nullable String url) {
}
