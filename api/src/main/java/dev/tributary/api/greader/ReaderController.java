package dev.tributary.api.greader;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.greader.ReaderFeeds.ReaderFeed;
import dev.tributary.api.subscription.OwnSource;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.FeedRejections;
import dev.tributary.crawler.FeedRejectedException;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.NewIds;
import dev.tributary.pubsub.QuotaExceededException;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Unread;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Google Reader's account calls: the edit token, who the caller is, subscriptions (list,
 * subscribe, unsubscribe, rename, file into labels), labels (list, rename, delete: Tributary's
 * folders) and unread counts per feed, label and the reading list.
 */
@RestController
@RequestMapping("/reader/api/0")
class ReaderController {

    private final ReaderFeeds feeds;
    private final Subscriptions subscriptions;
    private final Folders folders;
    private final FeedResolver resolver;
    private final HomeFeed home;
    private final Accounts accounts;

    ReaderController(ReaderFeeds feeds, Subscriptions subscriptions, Folders folders, FeedResolver resolver, HomeFeed home,
            Accounts accounts) {
        this.feeds = feeds;
        this.subscriptions = subscriptions;
        this.folders = folders;
        this.resolver = resolver;
        this.home = home;
        this.accounts = accounts;
    }

    @GetMapping("/token")
    ResponseEntity<String> token(@RequestAttribute(ReaderRequests.AUTH) String auth) {
        return ReaderText.of(ReaderAuthentication.editToken(auth));
    }

    @GetMapping("/user-info")
    Map<String, Object> userInfo(@RequestAttribute(ReaderRequests.CALLER) Caller caller) {
        StoredAccount account = accounts.find(caller.userId()).orElseThrow(() -> ApiProblem.notFound("account"));
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("userId", Long.toString(account.id()));
        info.put("userName", account.body().username());
        info.put("userProfileId", Long.toString(account.id()));
        info.put("userEmail", account.body().email() == null ? "" : account.body().email());
        return info;
    }

    @GetMapping("/subscription/list")
    Map<String, Object> subscriptionList(@RequestAttribute(ReaderRequests.CALLER) Caller caller) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (ReaderFeed feed : feeds.of(caller.userId())) {
            Map<String, Object> sub = new LinkedHashMap<>();
            sub.put("id", feed.feed().streamId());
            sub.put("title", feed.feed().title());
            sub.put("categories", feed.folders().stream()
                    .map(f -> Map.of("id", StreamId.label(f.name()), "label", f.name())).toList());
            sub.put("url", feed.feed().url());
            sub.put("htmlUrl", feed.feed().htmlUrl());
            sub.put("iconUrl", "");
            sub.put("firstitemmsec", Long.toString(feed.subscription().createdAt().toEpochMilli()));
            list.add(sub);
        }
        return Map.of("subscriptions", list);
    }

    /** {@code ac=subscribe|unsubscribe|edit} on the feed {@code s}, with a title {@code t} and labels to add {@code a} or remove {@code r}. */
    @PostMapping("/subscription/edit")
    ResponseEntity<String> subscriptionEdit(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params) {
        String action = params.getFirst("ac");
        List<String> streams = params.getOrDefault("s", List.of());
        if (streams.isEmpty() || streams.size() > 100) {
            throw ApiProblem.invalid("s", "names 1 to 100 feeds (feed/<url>)");
        }
        long user = caller.userId();
        for (String s : streams) {
            if (!(StreamId.parse("s", s) instanceof StreamId.Feed feed)) {
                throw ApiProblem.invalid("s", "names a feed: feed/<url>");
            }
            switch (action == null ? "" : action) {
                case "subscribe" -> {
                    long source = follow(user, feed.url());
                    edit(user, source, params);
                }
                case "unsubscribe" -> unfollow(user, feed.url());
                case "edit" -> edit(user, followed(user, feed.url()), params);
                default -> throw ApiProblem.invalid("ac", "is one of subscribe, unsubscribe and edit");
            }
        }
        return ReaderText.ok();
    }

    @RequestMapping(path = "/subscription/quickadd", method = RequestMethod.POST)
    Map<String, Object> quickAdd(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam(name = "quickadd", required = false) @Nullable String url) {
        if (url == null || url.isBlank()) {
            throw ApiProblem.invalid("quickadd", "is the url of a feed or of a page that names one, and is required");
        }
        String target = url.strip().startsWith("feed/") ? url.strip().substring(5) : url.strip();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("query", url);
        try {
            long source = follow(caller.userId(), target);
            ReaderFeeds.FeedRef feed = feeds.describe(List.of(source)).get(source);
            answer.put("numResults", 1);
            answer.put("streamId", feed.streamId());
            answer.put("streamName", feed.title());
        } catch (FeedRejectedException refused) {
            // The apps read a failed quickadd from the answer, not the status: numResults 0 and why.
            answer.put("numResults", 0);
            answer.put("error", FeedRejections.detail(refused.reason(), refused.getMessage()));
        } catch (QuotaExceededException full) {
            answer.put("numResults", 0);
            answer.put("error", full.advice());
        }
        return answer;
    }

    @GetMapping("/tag/list")
    Map<String, Object> tagList(@RequestAttribute(ReaderRequests.CALLER) Caller caller) {
        List<Map<String, Object>> tags = new ArrayList<>();
        tags.add(Map.of("id", StreamId.STARRED));
        for (Folder folder : folders.of(caller.userId())) {
            tags.add(Map.of("id", StreamId.label(folder.name()), "type", "folder"));
        }
        return Map.of("tags", tags);
    }

    /** Renames the label {@code s} (or {@code t}) to {@code dest}, each given as a label stream id or a bare name. */
    @PostMapping("/rename-tag")
    ResponseEntity<String> renameTag(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params) {
        Folder folder = label(caller.userId(), params);
        String dest = params.getFirst("dest");
        if (dest == null || dest.isBlank()) {
            throw ApiProblem.invalid("dest", "is the new name and is required");
        }
        String name = dest.startsWith("user/") && StreamId.parse("dest", dest) instanceof StreamId.Label label
                ? label.name() : dest;
        folders.rename(caller.userId(), folder.id(), name);
        return ReaderText.ok();
    }

    /** Deletes the label {@code s} (or {@code t}): the folder goes, its subscriptions stay. */
    @PostMapping("/disable-tag")
    ResponseEntity<String> disableTag(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params) {
        folders.delete(caller.userId(), label(caller.userId(), params).id());
        return ReaderText.ok();
    }

    /**
     * Unread counts, each with {@code newestItemTimestampUsec}: when the newest entry of that
     * stream was stored (not the request's time), so an app that skips unchanged streams can
     * tell which got something new.
     */
    @GetMapping("/unread-count")
    Map<String, Object> unreadCount(@RequestAttribute(ReaderRequests.CALLER) Caller caller) {
        long user = caller.userId();
        Unread unread = home.unread(user);
        List<ReaderFeed> followed = feeds.of(user);
        Map<Long, Long> newestBySource = new HashMap<>();
        List<Map<String, Object>> counts = new ArrayList<>();
        for (ReaderFeed feed : followed) {
            long source = feed.feed().sourceId();
            long count = unread.bySource().getOrDefault(source, 0L);
            if (count > 0) {
                long newest = newestEntry(user, source);
                newestBySource.put(source, newest);
                counts.add(count(feed.feed().streamId(), count, newest));
            }
        }
        for (Map.Entry<Long, Set<Long>> folder : folders.sourcesByFolder(user).entrySet()) {
            long count = folder.getValue().stream().mapToLong(source -> unread.bySource().getOrDefault(source, 0L)).sum();
            long newest = folder.getValue().stream().mapToLong(source -> newestBySource.getOrDefault(source, 0L)).max().orElse(0);
            folders.find(user, folder.getKey()).filter(f -> count > 0)
                    .ifPresent(f -> counts.add(count(StreamId.label(f.name()), count, newest)));
        }
        counts.add(count(StreamId.READING_LIST, unread.total(), newestEntry(user, null)));
        return Map.of("max", unread.total(), "unreadcounts", counts);
    }

    /** When the newest entry of the person's inbox (of one source, or all) was stored, in microseconds; 0 if none. */
    private long newestEntry(long user, @Nullable Long source) {
        List<Long> newest = home.ids(user, new InboxScan(InboxScan.Reads.ANY, source == null ? null : Set.of(source),
                null, null, null, false, 1));
        if (newest.isEmpty()) {
            return 0;
        }
        Instant stored = NewIds.issuedAt(newest.getFirst());
        return stored.getEpochSecond() * 1_000_000 + stored.getNano() / 1000;
    }

    private static Map<String, Object> count(String id, long count, long newestUsec) {
        return Map.of("id", id, "count", count, "newestItemTimestampUsec", Long.toString(newestUsec));
    }

    private Folder label(long user, MultiValueMap<String, String> params) {
        String s = params.getFirst("s");
        String name;
        if (s != null && !s.startsWith("user/")) {
            name = s; // NetNewsWire names the label bare
        } else if (s != null) {
            if (!(StreamId.parse("s", s) instanceof StreamId.Label label)) {
                throw ApiProblem.invalid("s", "names a label: user/-/label/<name>");
            }
            name = label.name();
        } else if (params.getFirst("t") != null) {
            name = params.getFirst("t");
        } else {
            throw ApiProblem.invalid("s", "names the label and is required");
        }
        return folders.byName(user, name).orElseThrow(() -> ApiProblem.notFound("label"));
    }

    /** Subscribes to a feed url, a person's export or a group's page; the source's id. */
    private long follow(long user, String url) {
        Stored<Source> source = feeds.followable(user, url).orElseGet(() -> resolver.resolve(url));
        if (OwnSource.isOwn(user, source.body())) {
            return source.id();
        }
        subscriptions.subscribe(user, source.id(), null);
        return source.id();
    }

    /** Leaves a followed source; one's own source is not among the subscriptions apps see, so it is a 404 like any other. */
    private void unfollow(long user, String url) {
        long source = followed(user, url);
        if (feeds.sourceOf(url).map(s -> OwnSource.isOwn(user, s.body())).orElse(false)) {
            throw ApiProblem.notFound("feed among your subscriptions");
        }
        subscriptions.unsubscribe(user, source);
    }

    private long followed(long user, String url) {
        return feeds.subscribedSource(user, url).orElseThrow(() -> ApiProblem.notFound("feed among your subscriptions"));
    }

    /** A new title ({@code t}) and labels to add ({@code a}) and remove ({@code r}); labels that do not exist yet are created. */
    private void edit(long user, long source, MultiValueMap<String, String> params) {
        String title = params.getFirst("t");
        if (title != null && !title.isBlank()) {
            subscriptions.retitle(user, source, title.strip());
        }
        List<String> add = labels("a", params);
        List<String> remove = labels("r", params);
        if (add.isEmpty() && remove.isEmpty()) {
            return;
        }
        Set<Long> filed = new LinkedHashSet<>(folders.foldersOf(user, source).stream().map(Folder::id).toList());
        for (String name : remove) {
            folders.byName(user, name).ifPresent(folder -> filed.remove(folder.id()));
        }
        for (String name : add) {
            filed.add(folders.findOrCreate(user, name).id());
        }
        folders.file(user, source, filed);
    }

    private static List<String> labels(String name, MultiValueMap<String, String> params) {
        List<String> values = params.getOrDefault(name, List.of());
        if (values.size() > 10) {
            throw ApiProblem.invalid(name, "may be given at most 10 times");
        }
        List<String> labels = new ArrayList<>();
        for (String value : values) {
            if (StreamId.parse(name, value) instanceof StreamId.Label label) {
                labels.add(label.name());
            }
        }
        return labels;
    }
}
