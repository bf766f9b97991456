package dev.tributary.pubsub;

/**
 * Published (after its write commits) when a person stops following a source, whatever the path
 * (REST, Google Reader, leaving a group): what other modules keep per subscription follows it, as
 * the crawler's "always fetch the full article" wish does.
 */
public record SourceUnfollowed(long userId, long sourceId) {
}
