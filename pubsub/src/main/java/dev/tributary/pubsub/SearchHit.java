package dev.tributary.pubsub;

/** One item a search found, with its score: title occurrences weigh more than summary ones. */
public record SearchHit(Stored<Item> item, long score) {
}
