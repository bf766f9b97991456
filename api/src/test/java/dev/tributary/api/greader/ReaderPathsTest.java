package dev.tributary.api.greader;

import static dev.tributary.api.testing.ReaderClient.longId;
import static dev.tributary.api.timeline.Deliveries.entry;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.IdGenerator;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;

/**
 * The request shapes real clients send that the Google Reader documents do not show, over real
 * HTTP (the firewall and Tomcat's path handling are part of what is tested; MockMvc skips both):
 * stream ids in the path in every spelling, FreshRSS's {@code /api/greader.php} and
 * {@code /api/fever.php}, a server address typed with a trailing slash, and the Atom output.
 */
@ApiTest
class ReaderPathsTest {

    private static final String READING_LIST = "user/-/state/com.google/reading-list";
    private static final String READ = "user/-/state/com.google/read";
    private static final String STARRED = "user/-/state/com.google/starred";
    private static final String GR = "http://www.google.com/schemas/reader/atom/";
    private static final String ATOM = "http://www.w3.org/2005/Atom";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private ReaderClient reader;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    /** A followed feed with a port in its url, filed under "Tech", with two entries. */
    private record Followed(TestUser user, String auth, String url, long source, List<Long> items) {
    }

    private Followed followed(String name) {
        TestUser user = api.newUser(name);
        String url = "http://feeds.example.test:8080/" + UUID.randomUUID() + "/feed.xml";
        long source = sources.feed(url).id();
        deliveries.follow(user, source);
        List<Long> items = deliveries.deliver(source, List.of(user), entry(MediaType.TEXT), entry(MediaType.TEXT));
        String auth = reader.login(user.username(), user.token());
        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("ac", "edit"), entry("s", "feed/" + url),
                entry("a", "user/-/label/Tech")));
        return new Followed(user, auth, url, source, items);
    }

    @Test
    void aStreamIdInThePathIsReadInEverySpellingClientsSend() {
        Followed f = followed("pathids");
        String stream = "feed/" + f.url();
        Map<String, String> spellings = Map.of(
                // newsboat's freshrss source (src/freshrssapi.cpp, r2.36: curl_easy_escape(id)): the whole id url-encoded
                URLEncoder.encode(stream, StandardCharsets.UTF_8), stream,
                // libgreader (GoogleReader.py, get_feed_content): quote() leaves the slashes
                "feed/http%3A//feeds.example.test%3A8080/" + f.url().substring(31), stream,
                // some apps send it raw
                stream, stream,
                "user%2F-%2Flabel%2FTech", "user/-/label/Tech",
                "feed%2F" + f.source(), "feed/" + f.source());
        for (Map.Entry<String, String> spelling : spellings.entrySet()) {
            for (String prefix : List.of("/reader/api/0/stream/contents/", "/api/greader.php/reader/api/0/stream/contents/",
                    "//reader/api/0/stream/contents/")) {
                JsonNode answer = reader.ok(prefix + spelling.getKey() + "?n=100", f.auth()).json();
                assertThat(answer.path("id").asString()).as(prefix + spelling.getKey()).isEqualTo(spelling.getValue());
                assertThat(ids(answer)).as(prefix + spelling.getKey()).containsExactlyInAnyOrderElementsOf(f.items());
            }
        }
        // The same validation as s=: a malformed id is a 400, a feed not followed a 404, both as problems.
        ApiResponse malformed = reader.get("/reader/api/0/stream/contents/bogus%2Fthing", f.auth());
        assertThat(malformed.status()).as(malformed.toString()).isEqualTo(400);
        assertThat(malformed.contentType()).startsWith("application/problem+json");
        assertThat(malformed.json().path("detail").asString()).contains("is not a stream id");
        ApiResponse unknown = reader.get("/reader/api/0/stream/contents/feed%2Fhttp%3A%2F%2Fnowhere.example.test%2Fx", f.auth());
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
        // Without a valid Auth value the path changes nothing.
        assertThat(reader.get("/reader/api/0/stream/contents/" + URLEncoder.encode(stream, StandardCharsets.UTF_8), null)
                .status()).isEqualTo(401);
        // Encoded slashes stay refused everywhere else.
        ApiResponse elsewhere = api.get("/api/v1/folders%2Fx", f.user().token());
        assertThat(elsewhere.status()).as(elsewhere.toString()).isEqualTo(400);
        assertThat(elsewhere.json().path("type").asString()).endsWith("rejected-request");
        assertThat(api.get("/api/v1//folders", f.user().token()).status()).isEqualTo(400);
    }

    @Test
    void freshRssPathsAndATrailingSlashReachTheSameApiWithTheSameChecks() {
        Followed f = followed("freshpaths");
        for (String login : List.of("/api/greader.php/accounts/ClientLogin", "//accounts/ClientLogin",
                "/api/greader.php//accounts/ClientLogin")) {
            ApiResponse answer = api.send(api.builder(login, null).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(ReaderClient.encode(List.of(entry("Email", f.user().username()),
                            entry("Passwd", f.user().token()))))));
            assertThat(answer.status()).as(login + " " + answer).isEqualTo(200);
            assertThat(answer.body()).as(login).contains("Auth=");
            ApiResponse wrong = api.send(api.builder(login, null).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("Email=" + f.user().username() + "&Passwd=wrong")));
            assertThat(wrong.status()).as(login).isEqualTo(401);
            assertThat(wrong.body()).as(login).contains("Error=BadAuthentication");
        }
        for (String prefix : List.of("/api/greader.php/reader/api/0/", "//reader/api/0/", "/api/greader.php//reader/api/0/")) {
            ApiResponse list = reader.ok(prefix + "subscription/list?output=json", f.auth());
            assertThat(list.json().path("subscriptions").get(0).path("id").asString()).isEqualTo("feed/" + f.url());
            assertThat(list.header("RateLimit-Limit")).as("counted like the canonical path").isNotNull();
            ApiResponse anonymous = reader.get(prefix + "subscription/list?output=json", null);
            assertThat(anonymous.status()).isEqualTo(401);
            assertThat(anonymous.header("X-Reader-Google-Bad-Token")).isEqualTo("true");
            String t = reader.ok(prefix + "token", f.auth()).body().strip();
            reader.ok(prefix + "edit-tag", f.auth(), List.of(entry("T", t), entry("i", longId(f.items().getFirst())),
                    entry("a", READ)));
        }
        assertThat(api.get("/api/v1/unread", f.user().token()).json().path("total").asLong()).isEqualTo(1);

        // Fever under FreshRSS's path answers exactly as under its own.
        for (String body : List.of("api_key=0123456789abcdef0123456789abcdef", "")) {
            ApiResponse own = feverPost("/fever/?api", body);
            ApiResponse fresh = feverPost("/api/fever.php?api", body);
            assertThat(fresh.status()).isEqualTo(own.status());
            assertThat(fresh.body()).isEqualTo(own.body());
        }
        // Only these prefixes are folded: the rest of /api stays the bearer-token API.
        assertThat(api.get("/api/greader.php/api/v1/folders", f.user().token()).status()).isEqualTo(404);
    }

    private ApiResponse feverPost(String path, String body) {
        return api.send(api.builder(path, null).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /**
     * newsboat 2.21's feedhq source (src/feedhqapi.cpp: {@code feedhq-url + "/reader/atom/" +
     * curl_easy_escape(id) + "?n=" + feedhq-min-items}) and its Atom parser (rss/atomparser.cpp:
     * id, title, link, summary, published, and categories of scheme http://www.google.com/reader/
     * whose label "read" or "fresh" sets the read state in src/rssparser.cpp).
     */
    @Test
    void atomOutputPagesAndFiltersLikeStreamContents() throws Exception {
        Followed f = followed("atom");
        String stream = "feed/" + f.url();
        String encoded = URLEncoder.encode(stream, StandardCharsets.UTF_8);
        reader.ok("/reader/api/0/edit-tag", f.auth(), List.of(entry("i", longId(f.items().getFirst())), entry("a", READ)));
        reader.ok("/reader/api/0/edit-tag", f.auth(), List.of(entry("i", longId(f.items().getLast())), entry("a", STARRED)));

        ApiResponse first = reader.ok("//reader/atom/" + encoded + "?n=1", f.auth());
        assertThat(first.contentType()).startsWith("application/atom+xml");
        Document page = xml(first.body());
        Element feed = page.getDocumentElement();
        assertThat(feed.getNamespaceURI()).isEqualTo(ATOM);
        assertThat(text(feed, ATOM, "id")).isEqualTo("tag:google.com,2005:reader/" + stream);
        String continuation = text(feed, GR, "continuation");
        assertThat(continuation).isNotBlank();
        List<Element> entries = children(feed, ATOM, "entry");
        assertThat(entries).hasSize(1);

        Document rest = xml(reader.ok("/api/greader.php/reader/atom/" + encoded + "?n=1&c=" + continuation, f.auth()).body());
        entries.addAll(children(rest.getDocumentElement(), ATOM, "entry"));
        assertThat(entries).hasSize(2);
        // A full page continues (as stream/contents does); the page after the last entry is empty and ends.
        Document end = xml(reader.ok("/reader/atom/" + encoded + "?n=1&c=" + text(rest.getDocumentElement(), GR, "continuation"),
                f.auth()).body());
        assertThat(children(end.getDocumentElement(), ATOM, "entry")).isEmpty();
        assertThat(children(end.getDocumentElement(), GR, "continuation")).isEmpty();

        for (Element entry : entries) {
            Element id = children(entry, ATOM, "id").getFirst();
            long itemId = ItemIds.parse(id.getTextContent());
            assertThat(id.getTextContent()).matches("tag:google\\.com,2005:reader/item/[0-9a-f]{16}");
            assertThat(id.getAttributeNS(GR, "original-id")).isNotBlank();
            assertThat(Long.parseLong(entry.getAttributeNS(GR, "crawl-timestamp-msec"))).isPositive();
            assertThat(children(entry, ATOM, "source").getFirst().getAttributeNS(GR, "stream-id")).isEqualTo(stream);
            List<String> labels = children(entry, ATOM, "category").stream()
                    .filter(c -> c.getAttribute("scheme").equals("http://www.google.com/reader/"))
                    .map(c -> c.getAttribute("label")).toList();
            boolean isRead = itemId == f.items().getFirst();
            assertThat(labels).as("entry " + itemId).contains("reading-list", isRead ? "read" : "fresh", "Tech")
                    .doesNotContain(isRead ? "fresh" : "read");
            assertThat(labels.contains("starred")).isEqualTo(itemId == f.items().getLast());
            assertThat(children(entry, ATOM, "link").getFirst().getAttribute("href")).isNotBlank();
        }
        assertThat(entries.stream().map(e -> ItemIds.parse(children(e, ATOM, "id").getFirst().getTextContent())).toList())
                .containsExactlyInAnyOrderElementsOf(f.items());

        // The same filters: unread only; the reading list; the starred stream by s=; a bad stream id.
        Document unread = xml(reader.ok("/reader/atom/" + encoded + "?n=20&xt=" + READ, f.auth()).body());
        assertThat(children(unread.getDocumentElement(), ATOM, "entry")).hasSize(1);
        Document all = xml(reader.ok("/reader/atom/" + URLEncoder.encode(READING_LIST, StandardCharsets.UTF_8)
                + "?n=20&r=o&ot=0", f.auth()).body());
        assertThat(children(all.getDocumentElement(), ATOM, "entry")).hasSize(2);
        Document starred = xml(reader.ok("/reader/atom?s=" + STARRED, f.auth()).body());
        assertThat(children(starred.getDocumentElement(), ATOM, "entry")).hasSize(1);
        assertThat(reader.get("/reader/atom/nonsense", f.auth()).status()).isEqualTo(400);
        assertThat(reader.get("/reader/atom/" + encoded, null).status()).isEqualTo(401);
    }

    @Test
    void idRefsCarryTimesUnreadCountsTheNewestEntryAndStarredCanBeMarkedRead() {
        Followed f = followed("refs");
        JsonNode refs = reader.ok("/reader/api/0/stream/items/ids?n=100&s=" + READING_LIST, f.auth()).json().path("itemRefs");
        assertThat(refs.size()).isEqualTo(2);
        for (JsonNode ref : refs) {
            long id = Long.parseLong(ref.path("id").asString());
            Instant stored = IdGenerator.timestampOf(id);
            assertThat(ref.path("timestampUsec").asString()).isEqualTo(Long.toString(stored.toEpochMilli() * 1000));
            assertThat(ref.path("directStreamIds").isArray()).isTrue();
        }

        long newest = f.items().stream().mapToLong(Long::longValue).max().orElseThrow();
        String newestUsec = Long.toString(IdGenerator.timestampOf(newest).toEpochMilli() * 1000);
        JsonNode counts = reader.ok("/reader/api/0/unread-count?output=json", f.auth()).json().path("unreadcounts");
        for (String id : List.of("feed/" + f.url(), "user/-/label/Tech", READING_LIST)) {
            JsonNode count = StreamSupport.stream(counts.spliterator(), false).filter(c -> c.path("id").asString().equals(id))
                    .findFirst().orElseThrow(() -> new AssertionError(id + " not in " + counts));
            assertThat(count.path("count").asLong()).as(id).isEqualTo(2);
            assertThat(count.path("newestItemTimestampUsec").asString()).as(id + ": the newest entry's time, not now")
                    .isEqualTo(newestUsec);
        }

        reader.ok("/reader/api/0/edit-tag", f.auth(), List.of(entry("i", longId(f.items().getFirst())), entry("a", STARRED)));
        reader.ok("/reader/api/0/mark-all-as-read", f.auth(), List.of(entry("s", STARRED),
                entry("ts", Long.toString((System.currentTimeMillis() + 1000) * 1000))));
        assertThat(api.get("/api/v1/unread", f.user().token()).json().path("total").asLong())
                .as("the starred entry is read, the other is not").isEqualTo(1);
        List<String> unread = new ArrayList<>();
        reader.ok("/reader/api/0/stream/items/ids?n=100&xt=" + READ, f.auth()).json().path("itemRefs")
                .forEach(ref -> unread.add(ref.path("id").asString()));
        assertThat(unread).containsExactly(Long.toString(f.items().getLast()));
    }

    private static List<Long> ids(JsonNode contents) {
        return StreamSupport.stream(contents.path("items").spliterator(), false)
                .map(item -> ItemIds.parse(item.path("id").asString())).toList();
    }

    private static Document xml(String body) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> children(Element parent, String namespace, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element element && namespace.equals(element.getNamespaceURI())
                    && name.equals(element.getLocalName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element parent, String namespace, String name) {
        List<Element> found = children(parent, namespace, name);
        return found.isEmpty() ? "" : found.getFirst().getTextContent();
    }
}
