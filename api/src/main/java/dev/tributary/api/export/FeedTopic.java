package dev.tributary.api.export;

import java.util.Locale;

/**
 * A WebSub topic Tributary serves: one export (format) of one person's or one open group's feed.
 *
 * @param ownerId the person whose feed it is, or for a group's feed the group
 * @param url the topic url as subscribers name it (a home feed's carries its token: never log it)
 */
public record FeedTopic(Kind kind, long ownerId, String format, String url) {

    /** Which feed. */
    public enum Kind {
        /** {@code /feeds/users/{username}}: public. */
        USER,
        /** {@code /feeds/home?token=}: the person's private home timeline. */
        HOME,
        /** {@code /feeds/groups/{id}}: an open group's posts; served only while the group is open. */
        GROUP
    }

    /** The topic's name in logs, metrics and keys: {@code user:<id>:atom}, never the url. */
    public String key() {
        return key(kind, ownerId, format);
    }

    /** The key of the topic of {@code ownerId}'s feed of that kind in that format ({@code atom}, {@code rss}). */
    public static String key(Kind kind, long ownerId, String format) {
        return kind.name().toLowerCase(Locale.ROOT) + ":" + ownerId + ":" + format;
    }

    /** The hub that serves it: under the same root as the topic url. */
    public String hubUrl() {
        return FeedTopics.hub(url.substring(0, url.indexOf("/feeds/")));
    }

    /** The topic a {@link #key()} names, at {@code url}. */
    public static FeedTopic of(String key, String url) {
        String[] parts = key.split(":");
        return new FeedTopic(Kind.valueOf(parts[0].toUpperCase(Locale.ROOT)), Long.parseLong(parts[1]), parts[2], url);
    }

    /** Whether only its owner may read it (so its subscriptions count against the owner's cap). */
    public boolean personal() {
        return kind == Kind.HOME;
    }
}
