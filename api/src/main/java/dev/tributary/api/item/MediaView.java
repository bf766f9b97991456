package dev.tributary.api.item;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/** One media object of an item: {@code {url, type, width?, height?}}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MediaView(String url, @Nullable String type, @Nullable Integer width, @Nullable Integer height) {
}
