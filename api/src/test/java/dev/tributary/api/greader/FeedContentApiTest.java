package dev.tributary.api.greader;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.storage.testing.Await;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * A WordPress-style feed's {@code content:encoded} reaches every reader of it (issue 47): the REST
 * item view, Google Reader {@code content.content}, Fever {@code html} and the Atom and RSS exports,
 * sanitised, its relative links made absolute and its lazy image made real; timelines keep to the summary.
 */
@ApiTest
class FeedContentApiTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;

    @Test
    void aWordPressPostsFullContentReachesEveryApi() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser alice = api.newUser("content");
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.now().minus(1, ChronoUnit.HOURS).atZone(java.time.ZoneOffset.UTC));
        server.feed("/wp/feed/", """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
                <channel><title>A WordPress blog</title><link>https://blog.example/</link>
                <item><title>Charts of the week</title><link>https://blog.example/charts/</link>
                <guid isPermaLink="false">https://blog.example/?p=42</guid><pubDate>%s</pubDate>
                <description><![CDATA[The charts of the week, in short [&#8230;]]]></description>
                <content:encoded><![CDATA[<h2>Charts</h2><p>See <a href="/data/">the data</a> onward.</p>
                <figure><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/wp-content/uploads/chart.png" alt="chart"></figure>
                <pre><code>select * from charts;</code></pre><script>track()</script><p onclick="x()">The end.</p>]]></content:encoded>
                </item></channel></rss>""".formatted(date));
        String feedUrl = server.url("/wp/feed/").toString();
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("url", feedUrl)).status()).isIn(200, 201, 202);

        JsonNode listed = Await.value("the post in the home timeline",
                () -> api.get("/api/v1/timelines/home", alice.token()).json(), timeline -> timeline.size() == 1).get(0);
        String id = listed.path("id").asString();
        assertThat(listed.has("content")).as("timelines keep to summaries").isFalse();
        assertThat(listed.path("summary").asString()).isEqualTo("The charts of the week, in short […]");

        // RSS has no base but the document's own address: relative urls resolve against the feed's.
        String origin = server.url("/").toString();
        JsonNode item = api.get("/api/v1/items/" + id, alice.token()).json();
        String content = item.path("content").asString();
        assertThat(content).startsWith("<h2>Charts</h2>")
                .contains("<a href=\"" + origin + "data/\" rel=\"nofollow noopener\">the data</a>",
                        "<img src=\"" + origin + "wp-content/uploads/chart.png\" alt=\"chart\">",
                        "<pre><code>select * from charts;</code></pre>", "<p>The end.</p>")
                .doesNotContain("script", "track", "onclick", "data:");
        assertThat(item.path("content_truncated").asBoolean(true)).isFalse();
        assertThat(item.path("summary").asString()).isEqualTo("The charts of the week, in short […]");

        ReaderClient reader = new ReaderClient(api);
        String auth = reader.login(alice.username(), alice.token());
        String t = reader.ok("/reader/api/0/token", auth).body().strip();
        JsonNode readerItem = reader.ok("/reader/api/0/stream/items/contents", auth, List.of(entry("T", t),
                entry("output", "json"), entry("i", ReaderClient.longId(Long.parseLong(id))))).json().path("items").get(0);
        assertThat(readerItem.path("content").path("content").asString()).isEqualTo(content);
        assertThat(readerItem.path("summary").path("content").asString()).isEqualTo("The charts of the week, in short […]");
        String readerAtom = reader.ok("/reader/atom/user/-/state/com.google/reading-list", auth).body();
        assertThat(readerAtom).contains("<content type=\"html\">&lt;h2&gt;Charts&lt;/h2&gt;").doesNotContain("track()");

        JsonNode feverItems = fever(api, feverKey(api, alice), "&items").path("items");
        assertThat(feverItems.size()).isEqualTo(1);
        JsonNode feverItem = feverItems.get(0);
        assertThat(feverItem.path("title").asString()).isEqualTo("Charts of the week");
        assertThat(feverItem.path("html").asString()).isEqualTo(content);

        String feedToken = api.post("/api/v1/me/feed_token", alice.token(), null).json().path("feed_token").asString();
        String atom = api.get("/feeds/home.atom?token=" + feedToken, null).body();
        assertThat(atom).contains("<content type=\"html\">&lt;h2&gt;Charts&lt;/h2&gt;")
                .contains(origin + "wp-content/uploads/chart.png").doesNotContain("track()");
        String rss = api.get("/feeds/home.rss?token=" + feedToken, null).body();
        assertThat(rss).contains("<content:encoded>&lt;h2&gt;Charts&lt;/h2&gt;");
    }

    private static JsonNode fever(ApiClient api, String key, String flags) {
        ApiResponse response = api.send(api.builder("/fever/?api" + flags, null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + key)));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().path("auth").asInt()).isEqualTo(1);
        return response.json();
    }

    private static String feverKey(ApiClient api, TestUser user) throws Exception {
        ApiResponse created = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Reeder\",\"scopes\":[\"read\",\"write\"],\"fever\":true}")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String secret = user.username() + ":" + created.json().path("token").asString();
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(secret.getBytes(StandardCharsets.UTF_8)));
    }
}
