package dev.tributary.crawler.parse;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A feed as its document says it, the same shape for every format: strings as written (urls may be
 * relative, text may be HTML), for the normaliser to resolve against {@link #base} and sanitise.
 *
 * @param base the url relative references in feed-level fields resolve against: the feed's
 *     {@code xml:base} (Atom) resolved against the url it was fetched from, else that url
 * @param hub the WebSub hub the feed names ({@code <link rel="hub">}), as written
 * @param self the feed's own url as it names it ({@code rel="self"}, JSON {@code feed_url}), as written
 * @param author the feed-level author, which an Atom entry without its own inherits
 */
public record ParsedFeed(
        Format format,
        URI base,
        @Nullable Text title,
        @Nullable String siteUrl,
        @Nullable String hub,
        @Nullable String self,
        @Nullable Duration ttl,
        @Nullable String author,
        List<Entry> entries) {

    /** The family of document the feed was read from. */
    public enum Format { RSS, ATOM, JSON_FEED }

    public ParsedFeed {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(base, "base");
        entries = List.copyOf(entries);
    }

    /**
     * One entry as written.
     *
     * @param id its guid / atom:id / rdf:about / JSON id, as written
     * @param link its main (alternate) link, possibly relative
     * @param summary description / Atom summary / JSON summary (or Media RSS description when there is nothing else)
     * @param content content:encoded / Atom content / JSON content_html or content_text
     * @param base the url its relative references resolve against (entry {@code xml:base}, else the feed's base)
     */
    public record Entry(
            @Nullable String id,
            @Nullable String link,
            @Nullable Text title,
            @Nullable Text summary,
            @Nullable Text content,
            @Nullable String author,
            @Nullable Instant published,
            @Nullable Instant updated,
            List<String> categories,
            List<Media> media,
            URI base) {

        public Entry {
            categories = List.copyOf(categories);
            media = List.copyOf(media);
            Objects.requireNonNull(base, "base");
        }
    }

    /**
     * A media object as written: an enclosure, an Atom {@code rel="enclosure"} link, a Media RSS
     * content or thumbnail, a JSON Feed attachment or image.
     *
     * @param type its MIME type as declared, if any
     * @param medium Media RSS {@code medium} (image, audio, video, document, executable), if any
     * @param length its size in bytes, if declared
     * @param thumbnail whether it is a preview picture of the entry rather than what the entry carries
     */
    public record Media(
            String url,
            @Nullable String type,
            @Nullable String medium,
            @Nullable Integer width,
            @Nullable Integer height,
            @Nullable Long length,
            boolean thumbnail) {

        public Media {
            Objects.requireNonNull(url, "url");
        }
    }

    /** A piece of text and whether the feed marked it as HTML (else it is plain text, to be escaped). */
    public record Text(String value, boolean html) {

        public Text {
            Objects.requireNonNull(value, "value");
        }

        /** A text for {@code value}, or null when there is none (null or blank). */
        public static @Nullable Text of(@Nullable String value, boolean html) {
            return value == null || value.isBlank() ? null : new Text(value, html);
        }
    }
}
