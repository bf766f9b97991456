package dev.tributary.api.reaction;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A comment as the API shows it: {@code {id, item_id, author: {id, username}, text, created_at}}. */
record CommentView(String id, String itemId, Author author, String text, Instant createdAt) {

    /** Who wrote a comment; {@code username} is null if their account is gone. */
    record Author(String id, @Nullable String username) {
    }
}
