package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Issue 19 over HTTP: one story from two feeds is one item with {@code also_in}, counted and marked once. */
@ApiTest
class OneStoryApiTest {

    private static final String NEWEST = "/api/v1/timelines/home?limit=20";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    private static NewItem story(String url) {
        String guid = UUID.randomUUID().toString();
        return new NewItem(guid, "Title " + guid, "<p>Summary</p>", url, "author", MediaType.TEXT, List.of(), List.of(),
                Instant.now().minusSeconds(60));
    }

    private static JsonNode item(JsonNode page, long id) {
        for (JsonNode item : page) {
            if (item.path("id").asString().equals(String.valueOf(id))) {
                return item;
            }
        }
        return null;
    }

    private static List<String> alsoIn(JsonNode item) {
        return item.path("also_in").valueStream().map(source -> source.path("id").asString()).toList();
    }

    @Test
    void theStoryShowsOnceWithAlsoInCountsOnceAndIsReadThroughEitherCopy() {
        TestUser alice = api.newUser("story");
        TestUser bob = api.newUser("onefeed");
        long english = deliveries.feed();
        long java = deliveries.feed();
        deliveries.follow(alice, english);
        deliveries.follow(alice, java);
        deliveries.follow(bob, english);
        String url = "https://blog.example.test/" + UUID.randomUUID();
        long lead = deliveries.deliver(english, List.of(alice, bob), story(url + "/")).getFirst();
        assertThat(alsoIn(item(api.get(NEWEST, alice.token()).json(), lead))).isEmpty();

        long copy = deliveries.publish(java, story(url.replace("https:", "http:") + "?utm_source=rss")).getFirst();
        Await.until("the copy joined the entry", () -> !alsoIn(item(api.get(NEWEST, alice.token()).json(), lead)).isEmpty());

        JsonNode kept = api.get(NEWEST, alice.token()).json();
        assertThat(alsoIn(item(kept, lead))).containsExactly(String.valueOf(java));
        assertThat(item(kept, copy)).as("the copy has no entry of its own").isNull();
        assertThat(alsoIn(item(api.get("/api/v1/timelines/home?limit=20&unread=true", alice.token()).json(), lead)))
                .as("the horizon read, past the page cache").containsExactly(String.valueOf(java));
        assertThat(alsoIn(item(api.get(NEWEST, bob.token()).json(), lead))).as("bob follows one feed").isEmpty();
        JsonNode unread = api.get("/api/v1/unread", alice.token()).json();
        assertThat(unread.path("total").asLong()).isEqualTo(1);
        assertThat(unread.path("by_source").path(String.valueOf(english)).asLong()).isEqualTo(1);
        assertThat(unread.path("by_source").has(String.valueOf(java))).isFalse();

        assertThat(api.post("/api/v1/items/" + copy + "/read", alice.token(), null).status()).isEqualTo(204);

        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();
        assertThat(item(api.get(NEWEST, alice.token()).json(), lead).path("read").asBoolean()).isTrue();
        JsonNode javaItems = api.get("/api/v1/sources/" + java + "/items", alice.token()).json();
        JsonNode ownCopy = javaItems.isArray() ? item(javaItems, copy) : item(javaItems.path("items"), copy);
        assertThat(ownCopy).as("the feed's own page lists its item").isNotNull();
        assertThat(ownCopy.path("read").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/unread", bob.token()).json().path("total").asLong()).isEqualTo(1);
    }
}
