package dev.tributary.api.greader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.DeferredIndexing;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** {@code search/items/ids} as Google Reader clients call it, then the contents of what it found. */
@ApiTest
class ReaderSearchTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JdbcClient jdbc;

    @Test
    void searchGivesIdsTheAppReadsWithItemContents() {
        ApiClient api = new ApiClient(port);
        ReaderClient reader = new ReaderClient(api);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("rsearch");
        TestUser bob = api.newUser("rnosearch");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        String word = "r" + UUID.randomUUID().toString().substring(0, 8);
        long hit = deliveries.publish(feed, new NewItem(word, "Java垃圾回收调优 " + word, null, null, null, MediaType.TEXT,
                List.of(), List.of(), Instant.now())).getFirst();
        DeferredIndexing.awaitDrained(jdbc);
        String auth = reader.login(alice.username(), alice.token());

        JsonNode found = reader.ok("/reader/api/0/search/items/ids?output=json&num=50&q="
                + URLEncoder.encode("垃圾回收 " + word, StandardCharsets.UTF_8), auth).json();
        assertThat(ids(found)).containsExactly(String.valueOf(hit));
        JsonNode contents = reader.ok("/reader/api/0/stream/items/contents?output=json&i=" + hit, auth).json();
        assertThat(contents.path("items").get(0).path("title").asString()).isEqualTo("Java垃圾回收调优 " + word);

        String bobAuth = reader.login(bob.username(), bob.token());
        assertThat(ids(reader.ok("/reader/api/0/search/items/ids?q=" + word, bobAuth).json())).isEmpty();
        assertThat(reader.get("/reader/api/0/search/items/ids?q=", auth).status()).isEqualTo(400);
        assertThat(reader.get("/reader/api/0/search/items/ids?q=" + "x".repeat(600), auth).status()).isEqualTo(400);
        assertThat(reader.get("/reader/api/0/search/items/ids?q=" + word + "&num=x", auth).status()).isEqualTo(400);
        assertThat(reader.get("/reader/api/0/search/items/ids?q=" + word + "&s=feed/https://nowhere.test/", auth).status())
                .isEqualTo(404);
        assertThat(reader.get("/reader/api/0/search/items/ids?q=" + word, null).status()).isEqualTo(401);
    }

    private static List<String> ids(JsonNode answer) {
        List<String> ids = new ArrayList<>();
        answer.path("results").forEach(ref -> ids.add(ref.path("id").asString()));
        return ids;
    }
}
