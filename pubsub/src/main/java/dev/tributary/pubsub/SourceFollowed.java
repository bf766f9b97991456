package dev.tributary.pubsub;

/**
 * Published (after its write commits) when a source gains a reader: a new subscriber, or a
 * profile attaching it. The crawler wakes a feed it stopped fetching for want of readers.
 */
public record SourceFollowed(long sourceId) {
}
