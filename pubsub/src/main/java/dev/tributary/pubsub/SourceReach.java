package dev.tributary.pubsub;

import dev.tributary.storage.EntityStore;
import dev.tributary.storage.WrongKindException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The one rule of who may read a source and its items, whichever way they ask (a source's or a
 * group's page of items, one item, search, comments, likes, stars, articles, subscribing and so
 * the Google Reader and Fever views of it): a feed's and a person's items are anyone's; an
 * {@code open} group's too (anyone may join it anyway); a closed group's only its current
 * members' (FriendFeed's private groups). A former member loses it on leaving. Everyone else is
 * told the source or item does not exist, so a closed group's content cannot be probed for.
 *
 * <p>Kept below {@link Groups} and {@link Subscriptions} (it reads the group and its membership
 * itself) so that both can ask it without a cycle.
 */
@Service
public class SourceReach {

    /** The caller id of nobody signed in: no account has it, so they are a member of nothing. */
    public static final long ANONYMOUS = 0;

    private final Sources sources;
    private final EntityStore store;
    private final JdbcClient jdbc;

    SourceReach(Sources sources, EntityStore store, JdbcClient jdbc) {
        this.sources = sources;
        this.store = store;
        this.jdbc = jdbc;
    }

    /** The source if it exists and the person may read it; empty alike when it does not exist or is not theirs to read. */
    public Optional<Stored<Source>> find(long userId, long sourceId) {
        return sources.find(sourceId).filter(source -> mayRead(userId, source.body()));
    }

    /** Those of these sources the person may read (in no particular order): a page of several sources' items reads only these. */
    public Set<Long> readable(long userId, Collection<Long> sourceIds) {
        Set<Long> readable = new HashSet<>();
        for (Stored<Source> source : sources.getAll(sourceIds)) {
            if (mayRead(userId, source.body())) {
                readable.add(source.id());
            }
        }
        return readable;
    }

    /** Whether the person may read this source's items. */
    public boolean mayRead(long userId, Source source) {
        if (source.kind() != SourceKind.GROUP) {
            return true;
        }
        // A group's source is owned by the group; a source whose group is gone is nobody's to read.
        long groupId = source.ownerId();
        return group(groupId).map(group -> mayRead(userId, groupId, group)).orElse(false);
    }

    /** Whether the person may read this group's items (its feed, its source, its posts). */
    public boolean mayRead(long userId, long groupId, Group group) {
        return group.open() || isMember(groupId, userId);
    }

    private Optional<Group> group(long groupId) {
        try {
            return store.find(PubsubKinds.GROUP, groupId).map(Stored::of).map(Stored::body);
        } catch (WrongKindException e) {
            return Optional.empty();
        }
    }

    private boolean isMember(long groupId, long userId) {
        if (userId == ANONYMOUS) {
            return false;
        }
        return jdbc.sql("SELECT COUNT(*) FROM group_members WHERE group_id = ? AND user_id = ?")
                .params(groupId, userId).query(Long.class).single() > 0;
    }
}
