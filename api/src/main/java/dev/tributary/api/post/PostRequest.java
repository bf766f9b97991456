package dev.tributary.api.post;

import dev.tributary.api.web.NonBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What a person posts, to their own source or to a group: plain text, an optional link and tags. */
public record PostRequest(
        @NotNull @NonBlank @Size(max = Posts.MAX_TEXT, message = "must be 1 to 5000 characters") String text,
        @Nullable @Size(max = 2048) String url,
        @Nullable @Size(max = Posts.MAX_TAGS, message = "must be at most 20 tags")
        List<@NotNull @NonBlank @Size(min = 1, max = Posts.MAX_TAG_LENGTH, message = "must be 1 to 64 characters") String> tags) {
}
