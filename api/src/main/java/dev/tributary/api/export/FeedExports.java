package dev.tributary.api.export;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Accounts;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.Stored;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * What the exported feeds hold: a person's public feed (their posts and the feeds attached to
 * their profile, as their profile shows), a person's private home timeline, and an open group's posts.
 */
@Service
class FeedExports {

    /** Entries per exported feed: what feed readers poll for, not an archive. */
    static final int ENTRIES = 50;

    private final Accounts accounts;
    private final Sources sources;
    private final Items items;
    private final HomeFeed home;
    private final Groups groups;

    FeedExports(Accounts accounts, Sources sources, Items items, HomeFeed home, Groups groups) {
        this.groups = groups;
        this.accounts = accounts;
        this.sources = sources;
        this.items = items;
        this.home = home;
    }

    /** The person's public feed, newest first; empty if there is no such person. */
    Optional<Export> ofUser(String username) {
        return accounts.findByUsername(username).map(account -> new Export(account, profileItems(account.id())));
    }

    /** The home timeline of whoever holds {@code feedToken}; empty for any other token. */
    Optional<Export> home(String feedToken) {
        return accounts.findByFeedToken(feedToken).map(account -> new Export(account,
                home.page(account.id(), TimelineQuery.newest(ENTRIES)).stream().map(TimelineEntry::item).toList()));
    }

    /**
     * An open group's posts, newest first; empty for a closed group as for none at all: a closed
     * group's feed is its members' alone, and a feed url carries no credential to tell them apart.
     */
    Optional<GroupExport> ofGroup(long groupId) {
        return groups.find(groupId).filter(group -> group.body().open())
                .map(group -> new GroupExport(group, items.ofSource(group.body().sourceId(), null, null, ENTRIES)));
    }

    /** The newest of the person's own source and every attached feed, merged by id (ids are time-ordered). */
    private List<Stored<Item>> profileItems(long userId) {
        List<Long> sourceIds = new ArrayList<>();
        sourceIds.add(sources.ofUser(userId).id());
        sourceIds.addAll(sources.attachedFeeds(userId));
        List<Stored<Item>> merged = new ArrayList<>();
        for (long sourceId : sourceIds) {
            merged.addAll(items.ofSource(sourceId, null, null, ENTRIES));
        }
        return merged.stream().sorted(Comparator.comparingLong(Stored<Item>::id).reversed()).distinct().limit(ENTRIES).toList();
    }

    /** Whose feed it is and its items, newest first. */
    record Export(StoredAccount account, List<Stored<Item>> items) {
    }

    /** Which group's feed it is and its items, newest first. */
    record GroupExport(Stored<Group> group, List<Stored<Item>> items) {
    }
}
