package dev.tributary.api.greader;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.item.SourceRef;
import dev.tributary.api.item.SourceRefs;
import dev.tributary.api.subscription.OwnSource;
import dev.tributary.crawler.PublicUrlSettings;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceReach;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * A person's sources as Google Reader feeds. A feed source's stream id is {@code feed/<its url>};
 * a person's source is {@code feed/<their Atom export>} and a group's {@code feed/<its page>},
 * both under {@code tributary.public-url} (else the request's own origin), so the ids stay the same
 * across calls and apps can subscribe to a person by their export URL.
 */
@Component
class ReaderFeeds {

    /** How an app sees one source. */
    record FeedRef(long sourceId, String streamId, String title, String url, String htmlUrl) {
    }

    /** One subscription as {@code subscription/list} shows it. */
    record ReaderFeed(Subscription subscription, FeedRef feed, List<Folder> folders) {
    }

    private static final Pattern PERSON = Pattern.compile("/feeds/users/([a-z0-9_]{1,100})\\.(?:atom|rss)");
    private static final Pattern GROUP = Pattern.compile("/groups/(\\d{1,19})");

    private final Subscriptions subscriptions;
    private final Sources sources;
    private final SourceRefs refs;
    private final Folders folders;
    private final Accounts accounts;
    private final Groups groups;
    private final PublicUrlSettings publicUrl;
    private final SourceReach reach;

    ReaderFeeds(Subscriptions subscriptions, Sources sources, SourceRefs refs, Folders folders, Accounts accounts,
            Groups groups, PublicUrlSettings publicUrl, SourceReach reach) {
        this.reach = reach;
        this.subscriptions = subscriptions;
        this.sources = sources;
        this.refs = refs;
        this.folders = folders;
        this.accounts = accounts;
        this.groups = groups;
        this.publicUrl = publicUrl;
    }

    /** The person's subscriptions, their own source left out (it cannot be unsubscribed). */
    List<ReaderFeed> of(long userId) {
        List<Subscription> subs = subscriptions.of(userId);
        List<Stored<Source>> loaded = sources.getAll(subs.stream().map(Subscription::sourceId).toList());
        Map<Long, FeedRef> described = describeLoaded(loaded);
        Map<Long, Stored<Source>> byId = new HashMap<>();
        loaded.forEach(s -> byId.put(s.id(), s));
        Map<Long, List<Folder>> filed = folders.foldersBySource(userId);
        List<ReaderFeed> feeds = new ArrayList<>(subs.size());
        for (Subscription sub : subs) {
            FeedRef feed = described.get(sub.sourceId());
            Stored<Source> source = byId.get(sub.sourceId());
            if (feed == null || source == null || OwnSource.isOwn(userId, source.body())) {
                continue;
            }
            String title = sub.title() != null ? sub.title() : feed.title();
            feeds.add(new ReaderFeed(sub, new FeedRef(feed.sourceId(), feed.streamId(), title, feed.url(), feed.htmlUrl()),
                    filed.getOrDefault(sub.sourceId(), List.of())));
        }
        return feeds;
    }

    /** How apps see these sources; ids with no source are absent. */
    Map<Long, FeedRef> describe(Collection<Long> sourceIds) {
        return describeLoaded(sources.getAll(sourceIds));
    }

    /** Describes sources already loaded, so a caller that needs them too loads them once. */
    private Map<Long, FeedRef> describeLoaded(Collection<Stored<Source>> loaded) {
        Map<Long, SourceRef> named = refs.of(loaded.stream().map(Stored::id).toList());
        Map<Long, FeedRef> described = new HashMap<>();
        for (Stored<Source> source : loaded) {
            if (!named.containsKey(source.id())) {
                continue;
            }
            Source body = source.body();
            String title = Optional.ofNullable(named.get(source.id()).title()).orElse("");
            String url = switch (body.kind()) {
                case FEED -> body.url();
                case USER -> base() + "/feeds/users/" + title + ".atom";
                case GROUP -> base() + "/groups/" + body.ownerId();
            };
            String htmlUrl = switch (body.kind()) {
                case FEED -> body.siteUrl() != null ? body.siteUrl() : body.url();
                case USER -> base() + "/people/" + title;
                case GROUP -> url;
            };
            described.put(source.id(), new FeedRef(source.id(), "feed/" + url, title.isEmpty() ? url : title, url, htmlUrl));
        }
        return described;
    }

    /**
     * The source a {@code feed/…} stream names, if the app could follow it: a feed by its url, a
     * person by their export url, a group by its page, or any of them by its numeric source id.
     */
    Optional<Stored<Source>> sourceOf(String url) {
        if (url.chars().allMatch(Character::isDigit) && url.length() <= 19) {
            return sources.find(Long.parseLong(url));
        }
        String base = base();
        if (url.startsWith(base + "/")) {
            String path = url.substring(base.length());
            Matcher person = PERSON.matcher(path);
            if (person.matches()) {
                return accounts.findByUsername(person.group(1)).map(account -> sources.ofUser(account.id()));
            }
            Matcher group = GROUP.matcher(path);
            if (group.matches()) {
                return groups.find(Long.parseLong(group.group(1))).map(g -> sources.get(g.body().sourceId()));
            }
        }
        return sources.findFeed(url);
    }

    /**
     * The source a {@code feed/…} stream names, if the person may follow it: a closed group they are
     * not a member of is left to be resolved as any unknown url is ({@link SourceReach}), so the
     * answer is the same as for a group that does not exist.
     */
    Optional<Stored<Source>> followable(long userId, String url) {
        return sourceOf(url).filter(source -> reach.mayRead(userId, source.body()));
    }

    /** The subscribed source a {@code feed/…} stream names; empty if the person does not follow it. */
    Optional<Long> subscribedSource(long userId, String url) {
        return sourceOf(url).filter(source -> reach.mayRead(userId, source.body())).map(Stored::id)
                .filter(id -> subscriptions.find(userId, id).isPresent());
    }

    /** The web front end's page of an item: the link of an item that has none of its own. */
    String itemPage(long itemId) {
        return base() + "/items/" + itemId;
    }

    /** Where this deployment is reached: {@code tributary.public-url}, else the request's own origin. */
    String base() {
        if (publicUrl.publicUrl() != null) {
            String base = publicUrl.publicUrl().toString();
            return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        }
        // What ServletUriComponentsBuilder.fromCurrentContextPath() gives, without parsing the whole request URL.
        HttpServletRequest request = ((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes()).getRequest();
        String scheme = request.getScheme();
        int port = request.getServerPort();
        boolean defaultPort = port <= 0 || ("http".equals(scheme) && port == 80) || ("https".equals(scheme) && port == 443);
        return scheme + "://" + request.getServerName() + (defaultPort ? "" : ":" + port) + request.getContextPath();
    }
}
