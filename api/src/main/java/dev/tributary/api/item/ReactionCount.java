package dev.tributary.api.item;

/** How many likes and comments an item has. */
public record ReactionCount(long likes, long comments) {

    public static final ReactionCount NONE = new ReactionCount(0, 0);
}
