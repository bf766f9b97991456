package dev.tributary.api.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Issue 47: one 429 with {@code Retry-After} from a site paused every new subscription to it, each refused
 * 422 {@code timeout} without a request sent. A site of its own (its own server, so its own host key): the
 * pause this test causes touches no other test.
 */
@ApiTest
class ThrottledSiteSubscriptionApiTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;

    @Test
    void aSiteAskingForTimeDelaysNewSubscriptionsToItButRefusesNone() {
        ApiClient api = new ApiClient(port);
        TestUser alice = api.newUser("throttle");
        server.respond("/busy.xml", 429, Map.of("Retry-After", "300"), "slow down");
        server.feed("/other.xml", TestFeeds.numbered("Other", 2, Instant.now().minusSeconds(600)));

        ApiResponse throttled = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/busy.xml").toString()));
        ApiResponse other = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/other.xml").toString()));

        assertThat(throttled.status()).as(throttled.toString()).isEqualTo(201);
        assertThat(other.status()).as(other.toString()).isEqualTo(201);
        Instant answered = Instant.now();
        for (ApiResponse pending : new ApiResponse[] {throttled, other}) {
            JsonNode source = pending.json().path("source");
            assertThat(source.path("status").asString()).isEqualTo("ok");
            assertThat(source.path("last_fetched_at").isNull()).as("not fetched yet").isTrue();
            // Put off until the site allows, not due at once.
            assertThat(Instant.parse(source.path("next_fetch_at").asString())).isAfter(answered);
        }
        assertThat(server.requests("/busy.xml")).hasSize(1);
        assertThat(server.requests("/other.xml")).as("the paused site is not asked").isEmpty();
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isEqualTo(2);
    }
}
