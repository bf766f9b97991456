package dev.tributary.api.greader;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.ItemNotFoundException;
import dev.tributary.pubsub.NewIds;
import dev.tributary.pubsub.StarPage;
import dev.tributary.pubsub.Stars;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Google Reader's item calls: stream contents, id lists, contents by id, read and starred marks
 * ({@code edit-tag}) and "mark all as read". Caps: {@code n} is lowered to 10,000 for ids and
 * {@value #MAX_CONTENTS} for contents; at most {@value ItemIds#MAX_PER_CALL} {@code i} per call.
 */
@RestController
@RequestMapping("/reader/api/0")
class ReaderStreamController {

    static final int MAX_CONTENTS = 200;
    private static final String CONTENTS_PATH = "/reader/api/0/stream/contents/";

    private final ReaderStreams streams;
    private final ReaderItems items;
    private final HomeFeed home;
    private final Stars stars;
    private final Folders folders;
    private final ReaderFeeds feeds;
    private final JsonMapper json;
    private final ReaderIdPages idPages;

    ReaderStreamController(ReaderStreams streams, ReaderItems items, HomeFeed home, Stars stars, Folders folders,
            ReaderFeeds feeds, JsonMapper json, ReaderIdPages idPages) {
        this.json = json;
        this.idPages = idPages;
        this.streams = streams;
        this.items = items;
        this.home = home;
        this.stars = stars;
        this.folders = folders;
        this.feeds = feeds;
    }

    /**
     * Only the ids: every app reads just {@code id} from these refs, and a sync asks for up to
     * 10,000 of them, so the answer is written directly rather than as 10,000 small objects.
     */
    @GetMapping("/stream/items/ids")
    ResponseEntity<String> ids(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params) {
        StreamQuery query = StreamQuery.parse(null, params, 20, InboxScan.MAX_LIMIT);
        String answer = idPages.answer(caller.userId(), query, !streams.readsStars(query),
                () -> idList(streams.ids(caller.userId(), query)));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
    }

    /**
     * Each ref with its storage time ({@code timestampUsec}, read from the id, which is issued when
     * the item is stored: the same time as its {@code crawlTimeMsec}) and the labels put on the
     * item itself ({@code directStreamIds}: none, as Tributary files feeds, not items), the shape
     * Google Reader documented; none of the apps replayed here reads more than {@code id}.
     */
    private static String idList(ReaderStreams.Page page) {
        StringBuilder json = new StringBuilder(32 + page.ids().size() * 80).append("{\"itemRefs\":[");
        for (int i = 0; i < page.ids().size(); i++) {
            long id = page.ids().get(i);
            Instant stored = NewIds.issuedAt(id);
            json.append(i == 0 ? "{\"id\":\"" : ",{\"id\":\"").append(id)
                    .append("\",\"directStreamIds\":[],\"timestampUsec\":\"")
                    .append(stored.getEpochSecond() * 1_000_000 + stored.getNano() / 1000).append("\"}");
        }
        json.append(']');
        if (page.continuation() != null) {
            // A continuation is digits, or "s" and digits: nothing to escape.
            json.append(",\"continuation\":\"").append(page.continuation()).append('"');
        }
        return json.append('}').toString();
    }

    /** The stream named by {@code s}, or by the path after {@code stream/contents/}. */
    @RequestMapping(path = {"/stream/contents", "/stream/contents/**"}, method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<byte[]> contents(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params, HttpServletRequest request) {
        StreamId pathStream = pathStream(request, CONTENTS_PATH);
        StreamQuery query = StreamQuery.parse(pathStream, params, 20, MAX_CONTENTS);
        ReaderStreams.Page page = streams.ids(caller.userId(), query);
        return envelope(streamName(query.stream(), params), caller.userId(), page.ids(), page.continuation());
    }

    /** Contents by id; apps POST the ids (a long list), some GET them. */
    @RequestMapping(path = "/stream/items/contents", method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<byte[]> itemContents(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params) {
        List<Long> ids = ItemIds.parseAll(params.getOrDefault("i", List.of()));
        return envelope(StreamId.READING_LIST, caller.userId(), ids, null);
    }

    /** Adds ({@code a}) and removes ({@code r}) the read and starred states of items; labels on items are not kept. */
    @PostMapping("/edit-tag")
    ResponseEntity<String> editTag(@RequestAttribute(ReaderRequests.CALLER) Caller caller, @RequestParam MultiValueMap<String, String> params) {
        List<Long> ids = ItemIds.parseAll(params.getOrDefault("i", List.of()));
        List<StreamId> add = states("a", params);
        List<StreamId> remove = states("r", params);
        long user = caller.userId();
        if (add.stream().anyMatch(StreamId.Read.class::isInstance)) {
            home.markRead(user, ids);
        } else if (remove.stream().anyMatch(StreamId.Read.class::isInstance)) {
            home.markUnread(user, ids);
        }
        if (add.stream().anyMatch(StreamId.Starred.class::isInstance)) {
            // Only what the app was shown: entries of the person's own inbox, as the Fever API does.
            home.heldAmong(user, ids).forEach(id -> starIfVisible(user, id));
        } else if (remove.stream().anyMatch(StreamId.Starred.class::isInstance)) {
            ids.forEach(id -> unstarIfStarred(user, id));
        }
        return ReaderText.ok();
    }

    @PostMapping("/mark-all-as-read")
    ResponseEntity<String> markAllAsRead(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam(name = "s", required = false) @Nullable String s,
            @RequestParam(name = "ts", required = false) @Nullable String ts) {
        if (s == null) {
            throw ApiProblem.invalid("s", "names the stream to mark read and is required");
        }
        long user = caller.userId();
        Instant before = before(ts);
        switch (StreamId.parse("s", s)) {
            case StreamId.ReadingList all -> home.markReadBefore(user, before, null);
            case StreamId.Label label -> {
                Folder folder = streams.folder(user, label.name());
                folders.sourcesIn(user, folder.id()).forEach(source -> home.markReadBefore(user, before, source));
            }
            case StreamId.Feed feed -> home.markReadBefore(user, before, feeds.subscribedSource(user, feed.url())
                    .orElseThrow(() -> ApiProblem.notFound("feed among your subscriptions")));
            case StreamId.Starred starred -> markStarredRead(user, before);
            // Already read, or a state Tributary keeps no entries in: nothing to mark.
            case StreamId.Read read -> { }
            case StreamId.OtherState other -> { }
        }
        return ReaderText.ok();
    }

    /** Marks read the starred items of the person's inbox stored before {@code before}, walking the stars a page at a time. */
    private void markStarredRead(long user, Instant before) {
        Long below = null;
        while (true) {
            StarPage page = stars.page(user, below, null, null, Stars.MAX_PAGE);
            List<Long> ids = page.items().stream().map(StarPage.StarredItem::item)
                    .filter(item -> item.body().receivedAt().isBefore(before)).map(item -> item.id()).toList();
            for (int from = 0; from < ids.size(); from += HomeFeed.MAX_MARKS) {
                home.markRead(user, ids.subList(from, Math.min(ids.size(), from + HomeFeed.MAX_MARKS)));
            }
            if (page.oldestStarId() == null) {
                return;
            }
            below = page.oldestStarId();
        }
    }

    private void starIfVisible(long user, long itemId) {
        try {
            stars.star(user, itemId);
        } catch (ItemNotFoundException notTheirs) {
            // Another person's or an unknown item: as if not there, like every other id here.
        }
    }

    private void unstarIfStarred(long user, long itemId) {
        try {
            stars.unstar(user, itemId);
        } catch (ItemNotFoundException notTheirs) {
            // Not starred and not theirs: nothing to take off.
        }
    }

    private static List<StreamId> states(String name, MultiValueMap<String, String> params) {
        List<String> values = params.getOrDefault(name, List.of());
        if (values.size() > 10) {
            throw ApiProblem.invalid(name, "may be given at most 10 times");
        }
        return values.stream().map(value -> StreamId.parse(name, value)).toList();
    }

    /** {@code ts} is in microseconds (Google Reader's unit); milliseconds and seconds are told apart by size. */
    private static Instant before(@Nullable String ts) {
        Instant now = Instant.now();
        if (ts == null || ts.isBlank()) {
            return now;
        }
        long value = StreamQuery.number("ts", ts);
        Instant given = value >= 100_000_000_000_000L ? Instant.ofEpochSecond(value / 1_000_000)
                : value >= 100_000_000_000L ? Instant.ofEpochMilli(value) : Instant.ofEpochSecond(value);
        return given.isAfter(now) ? now : given;
    }

    /**
     * The stream id after {@code prefix} in the raw path, decoded once: apps send it url-encoded
     * whole ({@code feed%2Fhttp%3A%2F%2Fhost%2Ffeed.xml}: newsboat), in part
     * ({@code feed/http%3A//host/feed.xml}: libgreader) or raw ({@code feed/http://host/feed.xml});
     * null when the path ends at the prefix.
     */
    static @Nullable StreamId pathStream(HttpServletRequest request, String prefix) {
        String uri = request.getRequestURI().substring(request.getContextPath().length());
        if (!uri.startsWith(prefix) || uri.length() == prefix.length()) {
            return null;
        }
        String raw = uri.substring(prefix.length());
        try {
            return StreamId.parse("stream", UriUtils.decode(raw, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException badEscape) {
            throw ApiProblem.invalid("stream", "is not a well-formed stream id");
        }
    }

    static String streamName(StreamId stream, MultiValueMap<String, String> params) {
        String given = params.getFirst("s");
        return switch (stream) {
            case StreamId.ReadingList all -> StreamId.READING_LIST;
            case StreamId.Read read -> StreamId.READ;
            case StreamId.Starred starred -> StreamId.STARRED;
            case StreamId.Label label -> StreamId.label(label.name());
            case StreamId.Feed feed -> "feed/" + feed.url();
            case StreamId.OtherState other -> given != null ? given : "user/-/state/com.google/" + other.name();
        };
    }

    /** The answer around the items' array, written in one buffer of UTF-8. */
    private ResponseEntity<byte[]> envelope(String id, long userId, List<Long> ids, @Nullable String continuation) {
        ByteArrayOutputStream answer = new ByteArrayOutputStream(200 + ids.size() * 1600);
        answer.writeBytes(("{\"direction\":\"ltr\",\"id\":" + json.writeValueAsString(id) + ",\"title\":\"\",\"updated\":"
                + Instant.now().getEpochSecond() + ",\"items\":").getBytes(StandardCharsets.UTF_8));
        items.appendArray(answer, userId, ids);
        if (continuation != null) {
            answer.writeBytes((",\"continuation\":\"" + continuation + "\"").getBytes(StandardCharsets.UTF_8));
        }
        answer.write('}');
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer.toByteArray());
    }
}
