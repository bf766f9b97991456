package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import java.time.Instant;
import java.util.List;

/** A fluent {@link Entry} for tests: only what a test sets differs from an empty entry. */
record Entries(String id, String link, Text title, Text summary, Text content, String author, Instant published,
        Instant updated, List<String> categories, List<Media> media, URI base) {

    static final URI BASE = URI.create("https://example.com/blog/feed.xml");

    static Entries entry() {
        return new Entries(null, null, null, null, null, null, null, null, List.of(), List.of(), BASE);
    }

    static ParsedFeed feed(Entries... entries) {
        return new ParsedFeed(ParsedFeed.Format.RSS, BASE, null, null, null, null, null, null,
                java.util.Arrays.stream(entries).map(Entries::build).toList());
    }

    Entries id(String value) {
        return new Entries(value, link, title, summary, content, author, published, updated, categories, media, base);
    }

    Entries link(String value) {
        return new Entries(id, value, title, summary, content, author, published, updated, categories, media, base);
    }

    Entries title(String value) {
        return new Entries(id, link, new Text(value, true), summary, content, author, published, updated, categories, media, base);
    }

    Entries summary(String html) {
        return new Entries(id, link, title, new Text(html, true), content, author, published, updated, categories, media, base);
    }

    Entries plainSummary(String text) {
        return new Entries(id, link, title, new Text(text, false), content, author, published, updated, categories, media, base);
    }

    Entries content(String html) {
        return new Entries(id, link, title, summary, new Text(html, true), author, published, updated, categories, media, base);
    }

    Entries author(String value) {
        return new Entries(id, link, title, summary, content, value, published, updated, categories, media, base);
    }

    Entries published(String instant) {
        return new Entries(id, link, title, summary, content, author, Instant.parse(instant), updated, categories, media, base);
    }

    Entries updated(String instant) {
        return new Entries(id, link, title, summary, content, author, published, Instant.parse(instant), categories, media, base);
    }

    Entries categories(String... values) {
        return new Entries(id, link, title, summary, content, author, published, updated, List.of(values), media, base);
    }

    Entries media(Media... values) {
        return new Entries(id, link, title, summary, content, author, published, updated, categories, List.of(values), base);
    }

    Entries base(String value) {
        return new Entries(id, link, title, summary, content, author, published, updated, categories, media, URI.create(value));
    }

    Entry build() {
        return new Entry(id, link, title, summary, content, author, published, updated, categories, media, base);
    }

    static Media enclosure(String url, String type) {
        return new Media(url, type, null, null, null, null, false);
    }

    static Media thumbnail(String url) {
        return new Media(url, null, "image", null, null, null, true);
    }
}
