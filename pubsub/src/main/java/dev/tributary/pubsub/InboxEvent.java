package dev.tributary.pubsub;

/**
 * What a person's notification channel announces (Redis pub/sub, one channel per person, so any
 * app instance can serve the live stream): {@code item <id>} for a new home-timeline entry,
 * {@code delete <id>} for a retracted one, {@code unread} when read state changed otherwise,
 * {@code sources} when the pulled sources they follow changed (a stream listens to new channels).
 */
public record InboxEvent(Type type, long itemId) {

    /** The kinds of announcement. */
    public enum Type { ITEM, DELETE, UNREAD, SOURCES }

    /** The Redis channel of a person's announcements; the hash tag keeps it with their counters. */
    public static String channel(long userId) {
        return channel(Long.toString(userId));
    }

    /** {@link #channel(long)} around any text: the counters' script names a channel from a Lua expression. */
    public static String channel(String userId) {
        return "tributary:inbox:{" + userId + "}";
    }

    /**
     * The Redis channel of a pulled source's announcements ({@code item <id>}, {@code delete <id>}):
     * published once per item for all its followers; a live stream listens to the channels of the
     * pulled sources its person follows besides its own.
     */
    public static String sourceChannel(long sourceId) {
        return "tributary:pulled:{" + sourceId + "}";
    }

    /** The message as published. */
    public String encode() {
        return switch (type) {
            case ITEM -> "item " + itemId;
            case DELETE -> "delete " + itemId;
            case UNREAD -> "unread";
            case SOURCES -> "sources";
        };
    }

    /** Parses a published message; null for anything else (a newer node's format, noise). */
    public static InboxEvent decode(String message) {
        if (message == null) {
            return null;
        }
        if (message.equals("unread")) {
            return new InboxEvent(Type.UNREAD, 0);
        }
        if (message.equals("sources")) {
            return new InboxEvent(Type.SOURCES, 0);
        }
        int space = message.indexOf(' ');
        if (space < 0) {
            return null;
        }
        Type type = switch (message.substring(0, space)) {
            case "item" -> Type.ITEM;
            case "delete" -> Type.DELETE;
            default -> null;
        };
        try {
            return type == null ? null : new InboxEvent(type, Long.parseLong(message.substring(space + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
