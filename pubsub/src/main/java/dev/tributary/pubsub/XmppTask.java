package dev.tributary.pubsub;

import org.jspecify.annotations.Nullable;

/**
 * One row of the XMPP outbox: what is to be published, and how often it was tried.
 *
 * @param itemId the item ({@code publish}, {@code retract}, {@code notify}); 0 otherwise
 * @param sourceId the item's source, or the closed group's source ({@code members})
 * @param userId the person notified ({@code notify}) or sent a code ({@code code}); 0 otherwise
 * @param linkId the link the row was written for ({@code notify}, {@code code}); 0 otherwise
 * @param payload the verification code ({@code code}); null otherwise
 * @param inDoubt whether it was sent before without its answer coming back: the server may have it
 */
public record XmppTask(long id, Kind kind, long itemId, long sourceId, long userId, long linkId, @Nullable String payload,
        int attempts, boolean inDoubt) {

    /** What a row asks for. */
    public enum Kind {
        /** Publish (or republish, same item id) an item on its source's public node. */
        PUBLISH,
        /** Retract a tombstoned item from its source's public node. */
        RETRACT,
        /** Send a new inbox entry to the person's linked address as an event notification. */
        NOTIFY,
        /** Set a closed group's node whitelist to its members' linked addresses. */
        MEMBERS,
        /** Send a verification code to a newly linked address. */
        CODE;

        String sql() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Kind of(String sql) {
            return valueOf(sql.toUpperCase(java.util.Locale.ROOT));
        }
    }
}
