package dev.tributary.api.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** {@code POST /api/v1/subscriptions/{id}/refresh}: the crawler's politeness first, then the person's allowance. */
@ApiTest
class RefreshApiTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final Instant NEWEST = Instant.now().minusSeconds(600);

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aFeedJustFetchedWaitsAndSaysWhenAnOlderOneIsFetchedAtOnce() {
        TestUser alice = api.newUser("refresh");
        FEEDS.feed("/refresh/a.xml", TestFeeds.numbered("Refreshed", 2, NEWEST));
        JsonNode subscription = subscribe(alice, "/refresh/a.xml");
        String id = subscription.path("id").asString();
        // Subscribing fetched it a moment ago: politeness says wait, and says until when.
        ApiResponse early = api.post("/api/v1/subscriptions/" + id + "/refresh", alice.token(), null);
        assertThat(early.status()).as(early.toString()).isEqualTo(429);
        assertThat(early.header("Content-Type")).startsWith("application/problem+json");
        assertThat(early.json().path("reason").asString()).isEqualTo("recently_fetched");
        assertThat(Long.parseLong(early.header("Retry-After"))).isPositive();
        assertThat(early.json().path("fetch_at").asString())
                .isEqualTo(api.get("/api/v1/subscriptions", alice.token()).json().get(0).path("source").path("next_fetch_at").asString());
        assertThat(early.json().path("detail").asString()).contains("fetched again at").contains("UTC");
        assertThat(FEEDS.requests("/refresh/a.xml")).hasSize(1);

        // Fetched an hour ago (as if): due at once, and the crawler fetches it.
        String sourceId = subscription.path("source").path("id").asString();
        jdbc.sql("UPDATE crawl_state SET last_fetched_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR WHERE source_id = ?")
                .param(Long.parseLong(sourceId)).update();
        Instant asked = Instant.now();
        ApiResponse queued = api.post("/api/v1/subscriptions/" + id + "/refresh", alice.token(), null);
        assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
        assertThat(Instant.parse(queued.json().path("fetch_at").asString())).isBefore(asked.plusSeconds(5));
        Await.until("the crawl workers' fetch", () -> FEEDS.requests("/refresh/a.xml").size() >= 2);
        assertThat(FEEDS.requests("/refresh/a.xml")).as("fetched by the crawl workers").hasSize(2);
    }

    @Test
    void aSiteThatAskedToWaitIsWaitedFor() {
        TestUser alice = api.newUser("refreshwait");
        FEEDS.feed("/refresh/b.xml", TestFeeds.numbered("Busy", 1, NEWEST));
        JsonNode subscription = subscribe(alice, "/refresh/b.xml");
        jdbc.sql("""
                UPDATE crawl_state SET last_fetched_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR, last_http_status = 429,
                    next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL 1 HOUR WHERE source_id = ?""")
                .param(Long.parseLong(subscription.path("source").path("id").asString())).update();
        ApiResponse wait = api.post("/api/v1/subscriptions/" + subscription.path("id").asString() + "/refresh", alice.token(), null);
        assertThat(wait.status()).as(wait.toString()).isEqualTo(429);
        assertThat(wait.json().path("reason").asString()).isEqualTo("server_asked_to_wait");
        assertThat(Long.parseLong(wait.header("Retry-After"))).isGreaterThan(3000);
    }

    @Test
    void onlyTheCallersFeedSubscriptionsAndNoMoreThanTheAllowance() {
        TestUser alice = api.newUser("refreshown");
        TestUser bob = api.newUser("refreshown");
        FEEDS.feed("/refresh/c.xml", TestFeeds.numbered("Own", 1, NEWEST));
        String id = subscribe(alice, "/refresh/c.xml").path("id").asString();

        assertThat(api.post("/api/v1/subscriptions/" + id + "/refresh", bob.token(), null).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/subscriptions/12345678/refresh", alice.token(), null).status()).isEqualTo(404);
        ApiResponse malformed = api.post("/api/v1/subscriptions/nope/refresh", alice.token(), null);
        assertThat(malformed.status()).as(malformed.toString()).isIn(400, 404);
        assertThat(malformed.header("Content-Type")).startsWith("application/problem+json");

        ApiResponse followed = api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bob.username()));
        ApiResponse person = api.post("/api/v1/subscriptions/" + followed.json().path("id").asString() + "/refresh",
                alice.token(), null);
        assertThat(person.status()).as(person.toString()).isEqualTo(409);

        // The person's allowance: 10 a minute, politeness refusals included; then 429 without a reason.
        for (int i = 0; i < 9; i++) {
            assertThat(api.post("/api/v1/subscriptions/" + id + "/refresh", alice.token(), null).status()).isEqualTo(429);
        }
        ApiResponse over = api.post("/api/v1/subscriptions/" + id + "/refresh", alice.token(), null);
        assertThat(over.status()).isEqualTo(429);
        assertThat(over.json().has("reason")).as(over.toString()).isFalse();
        assertThat(over.json().path("detail").asString()).contains("10 feed refreshes a minute");
    }

    private JsonNode subscribe(TestUser user, String path) {
        ApiResponse created = api.post("/api/v1/subscriptions", user.token(), Map.of("url", FEEDS.url(path).toString()));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json();
    }
}
