package dev.tributary.pubsub;

/** The subscription, and whether this call created it (false: it already existed). */
public record SubscribeResult(Subscription subscription, boolean created) {
}
