package dev.tributary.api.fever;

import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Scope;
import dev.tributary.api.item.SourceRef;
import dev.tributary.api.item.SourceRefs;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.ItemContents;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Fever API (version 3) at {@code /fever/}, for the apps that speak it (Reeder, Unread, Fiery
 * Feeds…). One endpoint; query flags say what to answer ({@code groups}, {@code feeds},
 * {@code items}, {@code unread_item_ids}…) and form fields what to mark. The caller is the
 * personal access token whose Fever key ({@code md5("username:token")}) is the {@code api_key};
 * any other key gets {@code auth: 0}. Malformed input is ignored, as Fever servers do, rather than
 * refused: the apps show no error text.
 */
@RestController
@RequestMapping(path = {"/fever", "/fever/"}, produces = MediaType.APPLICATION_JSON_VALUE)
class FeverController {

    /** Items per {@code items} answer, as the Fever spec fixes it. */
    static final int PAGE = 50;

    private final FeverKeys keys;
    private final HomeFeed home;
    private final Stars stars;
    private final Folders folders;
    private final Subscriptions subscriptions;
    private final Sources sources;
    private final SourceRefs names;
    private final ItemContents contents;

    FeverController(FeverKeys keys, HomeFeed home, Stars stars, Folders folders, Subscriptions subscriptions,
            Sources sources, SourceRefs names, ItemContents contents) {
        this.contents = contents;
        this.keys = keys;
        this.home = home;
        this.stars = stars;
        this.folders = folders;
        this.subscriptions = subscriptions;
        this.sources = sources;
        this.names = names;
    }

    /** Apps POST (the spec's way); some send GET for reads. */
    @RequestMapping(method = {RequestMethod.GET, RequestMethod.POST})
    Map<String, Object> fever(@RequestParam MultiValueMap<String, String> params, HttpServletRequest request) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("api_version", 3);
        Optional<Caller> caller = keys.caller(request, params.getFirst("api_key"));
        if (caller.isEmpty()) {
            answer.put("auth", 0);
            return answer;
        }
        long user = caller.get().userId();
        if (params.containsKey("mark") && !caller.get().scopes().contains(Scope.WRITE)) {
            // Keys made before Fever tokens needed 'write': a refused mark is an HTTP error the app
            // reports (and retries), never auth:1 with the mark dropped.
            throw ApiProblem.forbidden("This Fever key's token has no 'write' scope, so it cannot mark items; "
                    + "make a token with 'read' and 'write' for the Fever app.");
        }
        answer.put("auth", 1);
        answer.put("last_refreshed_on_time", Instant.now().getEpochSecond());
        if (params.containsKey("mark")) {
            mark(user, params, answer);
        }
        if (params.containsKey("groups") || params.containsKey("feeds")) {
            List<Folder> ofUser = folders.of(user);
            if (params.containsKey("groups")) {
                answer.put("groups", ofUser.stream().map(f -> Map.of("id", FeverIds.of(f.id()), "title", f.name())).toList());
            }
            if (params.containsKey("feeds")) {
                answer.put("feeds", feeds(user));
            }
            answer.put("feeds_groups", feedsGroups(user));
        }
        if (params.containsKey("favicons")) {
            answer.put("favicons", List.of());
        }
        if (params.containsKey("items")) {
            items(user, params, answer);
        }
        if (params.containsKey("links")) {
            answer.put("links", List.of());
        }
        if (params.containsKey("unread_item_ids")) {
            answer.put("unread_item_ids", joined(home.unreadIds(user)));
        }
        if (params.containsKey("saved_item_ids")) {
            answer.put("saved_item_ids", joined(stars.allItemIds(user, stars.maxPerPerson())));
        }
        return answer;
    }

    private List<Map<String, Object>> feeds(long user) {
        List<Subscription> subs = subscriptions.of(user);
        Map<Long, Stored<Source>> byId = sources.getAll(subs.stream().map(Subscription::sourceId).toList()).stream()
                .collect(Collectors.toMap(Stored::id, Function.identity(), (a, b) -> a));
        Map<Long, SourceRef> refs = names.of(byId.keySet());
        List<Map<String, Object>> feeds = new ArrayList<>(subs.size());
        for (Subscription sub : subs) {
            Stored<Source> source = byId.get(sub.sourceId());
            if (source == null) {
                continue;
            }
            Source body = source.body();
            Map<String, Object> feed = new LinkedHashMap<>();
            feed.put("id", FeverIds.of(source.id()));
            feed.put("favicon_id", 0);
            // A person's or a group's source has no title or url of its own: apps list a nameless feed without its name.
            SourceRef ref = refs.get(source.id());
            String named = ref != null && ref.title() != null ? ref.title() : body.url();
            feed.put("title", sub.title() != null ? sub.title() : named != null ? named : "Untitled source");
            feed.put("url", nonNull(body.url()));
            feed.put("site_url", nonNull(body.siteUrl()));
            feed.put("is_spark", 0);
            feed.put("last_updated_on_time", source.updated().getEpochSecond());
            feeds.add(feed);
        }
        return feeds;
    }

    private List<Map<String, Object>> feedsGroups(long user) {
        return folders.sourcesByFolder(user).entrySet().stream()
                .map(e -> Map.<String, Object>of("group_id", FeverIds.of(e.getKey()), "feed_ids", joined(e.getValue())))
                .toList();
    }

    private void items(long user, MultiValueMap<String, String> params, Map<String, Object> answer) {
        List<TimelineEntry> entries;
        if (params.containsKey("with_ids")) {
            entries = home.inboxEntries(user, FeverIds.itemIds(home, user, FeverParams.ids(params.getFirst("with_ids"), PAGE)));
        } else if (params.containsKey("since_id")) {
            long since = FeverParams.id(params.getFirst("since_id")).filter(id -> id > 0).map(FeverIds::highestItemIdAt).orElse(0L);
            entries = home.inboxPage(user, since, null, PAGE);
        } else {
            Long maxId = FeverParams.id(params.getFirst("max_id")).filter(id -> id > 0).map(FeverIds::lowestItemIdAt).orElse(null);
            entries = home.inboxPage(user, null, maxId, PAGE);
        }
        List<Long> ids = entries.stream().map(TimelineEntry::id).toList();
        Set<Long> saved = stars.starredAmong(user, ids);
        Map<Long, ItemContent> full = contents.findAll(ids);
        answer.put("total_items", home.inboxSize(user));
        answer.put("items", entries.stream().map(entry -> item(entry, saved.contains(entry.id()), full.get(entry.id()))).toList());
    }

    /** {@code html} is the feed's full content when it gave one (what Fever apps show as the article), else the summary. */
    private static Map<String, Object> item(TimelineEntry entry, boolean saved, @Nullable ItemContent content) {
        Item body = entry.item().body();
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", FeverIds.of(entry.id()));
        item.put("feed_id", FeverIds.of(body.sourceId()));
        item.put("title", nonNull(body.title()));
        item.put("author", nonNull(body.author()));
        item.put("html", content != null ? content.html() : nonNull(body.summary()));
        item.put("url", nonNull(body.url()));
        item.put("is_saved", saved ? 1 : 0);
        item.put("is_read", entry.read() ? 1 : 0);
        item.put("created_on_time", body.publishedAt().getEpochSecond());
        return item;
    }

    /** {@code mark=item|feed|group}, {@code as=read|unread|saved|unsaved}, {@code id}, {@code before}. */
    private void mark(long user, MultiValueMap<String, String> params, Map<String, Object> answer) {
        String what = params.getFirst("mark");
        String as = params.getFirst("as");
        Optional<Long> id = FeverParams.id(params.getFirst("id"));
        if (what == null || as == null || id.isEmpty()) {
            return;
        }
        switch (what) {
            case "item" -> {
                Set<Long> items = FeverIds.itemIds(home, user, List.of(id.get()));
                switch (as) {
                    case "read" -> items.forEach(item -> home.markRead(user, item));
                    case "unread" -> items.forEach(item -> home.markUnread(user, item));
                    case "saved" -> items.forEach(item -> stars.star(user, item));
                    case "unsaved" -> starredWith(user, id.get()).forEach(item -> stars.unstar(user, item));
                    default -> { }
                }
                if (as.equals("saved") || as.equals("unsaved")) {
                    answer.put("saved_item_ids", joined(stars.allItemIds(user, stars.maxPerPerson())));
                } else {
                    answer.put("unread_item_ids", joined(home.unreadIds(user)));
                }
            }
            case "feed", "group" -> {
                if (!as.equals("read")) {
                    return;
                }
                Instant before = FeverParams.before(params.getFirst("before"));
                if (what.equals("feed")) {
                    subscriptions.of(user).stream().map(Subscription::sourceId).filter(source -> FeverIds.of(source) == id.get())
                            .forEach(source -> home.markReadBefore(user, before, source));
                } else if (id.get() == 0) {
                    home.markReadBefore(user, before, null);
                } else {
                    for (Folder folder : folders.of(user)) {
                        if (FeverIds.of(folder.id()) == id.get()) {
                            folders.sourcesIn(user, folder.id()).forEach(source -> home.markReadBefore(user, before, source));
                        }
                    }
                }
                answer.put("unread_item_ids", joined(home.unreadIds(user)));
            }
            default -> { }
        }
    }

    /** The starred items with that Fever id: a star may outlive the item's inbox entry, so not looked up in the inbox. */
    private List<Long> starredWith(long user, long feverId) {
        return stars.allItemIds(user, stars.maxPerPerson()).stream().filter(item -> FeverIds.of(item) == feverId).toList();
    }

    /** Tributary ids as Fever ids (exact in a double), comma-separated. */
    private static String joined(Collection<Long> ids) {
        return ids.stream().map(id -> String.valueOf(FeverIds.of(id))).collect(Collectors.joining(","));
    }

    private static String nonNull(@Nullable String value) {
        return value == null ? "" : value;
    }

    /** Lenient parsing of what the apps send: anything malformed reads as absent. */
    static final class FeverParams {

        private FeverParams() {
        }

        static Optional<Long> id(@Nullable String value) {
            if (value == null || value.isBlank() || value.length() > 19) {
                return Optional.empty();
            }
            try {
                long id = Long.parseLong(value.strip());
                return id < 0 ? Optional.empty() : Optional.of(id);
            } catch (NumberFormatException notANumber) {
                return Optional.empty();
            }
        }

        /** At most {@code cap} distinct ids of a comma list; the rest and anything malformed are dropped. */
        static List<Long> ids(@Nullable String list, int cap) {
            if (list == null) {
                return List.of();
            }
            Set<Long> ids = new LinkedHashSet<>();
            for (String part : list.split(",", cap * 4 + 1)) {
                if (ids.size() == cap) {
                    break;
                }
                id(part).filter(id -> id > 0).ifPresent(ids::add);
            }
            return List.copyOf(ids);
        }

        /** A unix time in seconds; absent or malformed is now (mark everything there is). */
        static Instant before(@Nullable String value) {
            Optional<Long> seconds = id(value);
            Instant now = Instant.now();
            return seconds.map(s -> Instant.ofEpochSecond(Math.min(s, now.getEpochSecond()))).orElse(now);
        }
    }
}
