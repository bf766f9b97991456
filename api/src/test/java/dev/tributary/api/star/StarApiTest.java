package dev.tributary.api.star;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class StarApiTest {

    private static final String STARRED = "/api/v1/timelines/starred";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private TestUser bob;

    @BeforeEach
    void twoReaders() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("star");
        bob = api.newUser("nostar");
    }

    @Test
    void starringIsIdempotentAndShowsOnTheStarrersItemsOnly() {
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.follow(bob, feed);
        long item = deliveries.deliver(feed, List.of(alice, bob), entry(MediaType.TEXT)).getFirst();
        String path = "/api/v1/items/" + item + "/star";

        ApiResponse starred = api.post(path, alice.token(), null);
        assertThat(starred.status()).isEqualTo(200);
        assertThat(starred.json().path("starred").asBoolean()).isTrue();
        assertThat(api.post(path, alice.token(), null).json().path("starred").asBoolean()).as("again").isTrue();

        assertThat(api.get(path, alice.token()).json().path("starred").asBoolean()).isTrue();
        assertThat(api.get(path, bob.token()).json().path("starred").asBoolean()).isFalse();
        assertThat(api.get("/api/v1/items/" + item, alice.token()).json().path("starred").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/items/" + item, bob.token()).json().path("starred").asBoolean()).isFalse();
        JsonNode filtered = api.get("/api/v1/timelines/home?media=text", alice.token()).json();
        assertThat(filtered.get(0).path("starred").asBoolean()).as("a filtered home page").isTrue();
        JsonNode ofSource = api.get("/api/v1/sources/" + feed + "/items", alice.token()).json();
        assertThat(ofSource.get(0).path("starred").asBoolean()).as("a source's page").isTrue();
        assertThat(api.get(STARRED, bob.token()).json().size()).isZero();

        ApiResponse unstarred = api.delete(path, alice.token());
        assertThat(unstarred.status()).isEqualTo(200);
        assertThat(unstarred.json().path("starred").asBoolean()).isFalse();
        assertThat(api.delete(path, alice.token()).status()).as("again").isEqualTo(200);
        assertThat(api.get("/api/v1/items/" + item, alice.token()).json().path("starred").asBoolean()).isFalse();
        assertThat(api.get(STARRED, alice.token()).json().size()).isZero();
    }

    @Test
    void theStarredTimelinePagesNewestStarredFirstWithLinks() {
        long feed = deliveries.feed();
        List<Long> items = deliveries.publish(feed, entry(MediaType.TEXT), entry(MediaType.LINK), entry(MediaType.TEXT),
                entry(MediaType.TEXT), entry(MediaType.TEXT));
        // Starred in an order unlike the items' own, and never delivered: stars do not need the inbox.
        List<Long> order = List.of(items.get(3), items.get(0), items.get(4), items.get(1), items.get(2));
        order.forEach(id -> assertThat(api.post("/api/v1/items/" + id + "/star", alice.token(), null).status()).isEqualTo(200));
        List<String> newestFirst = order.reversed().stream().map(String::valueOf).toList();

        ApiResponse first = api.get(STARRED + "?limit=2", alice.token());
        assertThat(first.status()).isEqualTo(200);
        assertThat(Deliveries.ids(first.json())).containsExactlyElementsOf(newestFirst.subList(0, 2));
        first.json().forEach(view -> assertThat(view.path("starred").asBoolean()).isTrue());
        ApiResponse second = api.get(link(first, "next"), alice.token());
        assertThat(Deliveries.ids(second.json())).containsExactlyElementsOf(newestFirst.subList(2, 4));
        assertThat(link(second, "next")).contains("limit=2");
        ApiResponse back = api.get(link(second, "prev"), alice.token());
        assertThat(Deliveries.ids(back.json())).containsExactlyElementsOf(newestFirst.subList(0, 2));
        ApiResponse third = api.get(link(second, "next"), alice.token());
        assertThat(Deliveries.ids(third.json())).containsExactly(newestFirst.get(4));
        ApiResponse end = api.get(link(third, "next"), alice.token());
        assertThat(end.json().size()).isZero();
        assertThat(end.header("Link")).isNull();

        publisher.tombstone(items.get(0));
        assertThat(Deliveries.ids(api.get(STARRED + "?limit=100", alice.token()).json()))
                .as("a tombstoned item leaves the list").doesNotContain(String.valueOf(items.get(0))).hasSize(4);
    }

    @Test
    void otherPeoplesUnknownAndHostileIdsAreProblems() {
        String group = api.post("/api/v1/groups", alice.token(), Map.of("name", "Starred club")).json().path("id").asString();
        String groupItem = api.post("/api/v1/groups/" + group + "/posts", alice.token(), Map.of("text", "members only"))
                .json().path("id").asString();

        ApiResponse hidden = api.post("/api/v1/items/" + groupItem + "/star", bob.token(), null);
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.contentType()).startsWith("application/problem+json");
        assertThat(api.delete("/api/v1/items/" + groupItem + "/star", bob.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/" + groupItem + "/star", bob.token()).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/items/" + groupItem + "/star", alice.token(), null).status()).isEqualTo(200);
        for (String id : List.of("777", "0", "-1", "nope", "1e9", "99999999999999999999999", "%20")) {
            ApiResponse refused = api.post("/api/v1/items/" + id + "/star", alice.token(), null);
            assertThat(refused.status()).as(id).isEqualTo(404);
            assertThat(refused.contentType()).as(id).startsWith("application/problem+json");
        }
        // Refused by the servlet container before any handler: a 4xx all the same.
        assertThat(api.post("/api/v1/items/%00/star", alice.token(), null).status()).isBetween(400, 499);
        assertThat(api.post("/api/v1/items/777/star", alice.token(), null).status()).isEqualTo(404);
        assertThat(api.get(STARRED + "?limit=500", alice.token()).status()).isEqualTo(400);
        assertThat(api.get(STARRED + "?max_id=abc", alice.token()).status()).isEqualTo(400);
        assertThat(api.get(STARRED, null).status()).isEqualTo(401);
        assertThat(api.post("/api/v1/items/" + groupItem + "/star", null, null).status()).isEqualTo(401);
        assertThat(Deliveries.ids(api.get(STARRED, alice.token()).json())).containsExactly(groupItem);
    }

    private static String link(ApiResponse response, String rel) {
        for (String part : response.header("Link").split(", ")) {
            if (part.endsWith("rel=\"" + rel + "\"")) {
                String url = part.substring(1, part.indexOf('>'));
                return url.substring(url.indexOf("/api/"));
            }
        }
        throw new AssertionError("no " + rel + " link in " + response.header("Link"));
    }
}
