package dev.tributary.api.subscription;

import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Stored;
import java.util.Objects;
import org.springframework.stereotype.Component;

/**
 * A person's own source, and their subscription to it. As on FriendFeed, people see their own
 * posts (and the feeds attached to their profile) in their home timeline: they are subscribed to
 * their own source when they first publish to it. That subscription is the system's, not the
 * person's: it is not listed among their subscriptions and cannot be deleted, and following
 * oneself by name is refused.
 */
@Component
public class OwnSource {

    private final Sources sources;
    private final Subscriptions subscriptions;

    OwnSource(Sources sources, Subscriptions subscriptions) {
        this.sources = sources;
        this.subscriptions = subscriptions;
    }

    /** The person's own source, with the person subscribed to it. */
    public Stored<Source> followed(long userId) {
        Stored<Source> own = sources.ofUser(userId);
        if (subscriptions.find(userId, own.id()).isEmpty()) {
            subscriptions.subscribe(userId, own.id(), null);
        }
        return own;
    }

    /** Whether {@code source} is {@code userId}'s own. */
    public static boolean isOwn(long userId, Source source) {
        return source.kind() == SourceKind.USER && Objects.equals(source.ownerId(), userId);
    }
}
