package dev.tributary.pubsub;

import java.util.Objects;

/**
 * An item's full content as its feed gave it ({@code content:encoded}, Atom {@code content},
 * {@code xhtml:body}, JSON Feed {@code content_html}): sanitised HTML, bounded by the publisher.
 * Kept once per item in {@code item_contents} ({@link ItemContents}), never in timelines.
 *
 * @param html the sanitised HTML, never blank
 * @param truncated whether the feed's content was longer than the bound and was cut at an element boundary
 */
public record ItemContent(String html, boolean truncated) {

    /** The most UTF-8 bytes of HTML kept per item; publishers cut longer content to fit. */
    public static final int MAX_BYTES = 512 * 1024;

    public ItemContent {
        Objects.requireNonNull(html, "html");
        if (html.isBlank()) {
            throw new IllegalArgumentException("content must not be blank");
        }
    }
}
