package dev.tributary.crawler.parse;

/** A feed as its document says it (placeholder: the parser defines the fields). */
public record ParsedFeed() {
}
