package dev.tributary.api.greader;

import static dev.tributary.api.testing.ReaderClient.longId;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.fever.FeverTestIds;
import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * A pulled source (three followers with {@code tributary.fanout.pull-threshold=3}) through the
 * REST API, Google Reader and Fever: its entries are listed, fetched, counted and marked as any
 * pushed source's, and the three views agree.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.crawler.allow-private=127.0.0.0/8",
                "tributary.fanout.pull-threshold=3"})
class PulledSourceReaderAppsTest {

    private static final String READING_LIST = "user/-/state/com.google/reading-list";
    private static final String READ = "user/-/state/com.google/read";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void googleReaderFeverAndRestAgreeOnAPulledSource() throws Exception {
        ApiClient api = new ApiClient(port);
        ReaderClient reader = new ReaderClient(api);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("pulla");
        long big = deliveries.feed();
        deliveries.follow(alice, big);
        // Counts kept on the node while alice follows no pulled source must not outlive the source turning pulled.
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();
        deliveries.follow(api.newUser("pullb"), big);
        deliveries.follow(api.newUser("pullc"), big);
        List<Long> ids = deliveries.publish(big, Deliveries.entry(MediaType.TEXT), Deliveries.entry(MediaType.TEXT),
                Deliveries.entry(MediaType.IMAGE));
        // Pulled: visible at once, no fan-out to wait for.
        assertThat(deliveries.timelineIds(alice)).containsAll(ids);
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("by_source").path(String.valueOf(big)).asLong()).isEqualTo(3);

        String auth = reader.login(alice.username(), alice.token());
        String t = reader.ok("/reader/api/0/token", auth).body().strip();
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?n=1000&output=json&s=" + READING_LIST, auth).json()))
                .containsExactlyInAnyOrderElementsOf(ids.stream().map(String::valueOf).toList());
        List<Map.Entry<String, String>> form = new ArrayList<>(List.of(entry("T", t), entry("output", "json")));
        ids.forEach(id -> form.add(entry("i", longId(id))));
        assertThat(reader.ok("/reader/api/0/stream/items/contents", auth, form).json().path("items").size()).isEqualTo(3);
        reader.ok("/reader/api/0/edit-tag", auth, List.of(entry("T", t), entry("i", longId(ids.get(0))), entry("a", READ)));
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?n=1000&output=json&s=" + READING_LIST + "&xt=" + READ, auth)
                .json())).containsExactlyInAnyOrder(String.valueOf(ids.get(1)), String.valueOf(ids.get(2)));
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(2);

        String key = feverKey(api, alice);
        assertThat(idList(fever(api, "&unread_item_ids", key, Map.of()).json().path("unread_item_ids").asString()))
                .containsExactlyInAnyOrder(FeverTestIds.of(ids.get(1)), FeverTestIds.of(ids.get(2)));
        JsonNode items = fever(api, "&items", key, Map.of()).json();
        assertThat(items.path("total_items").asInt()).isEqualTo(3);
        assertThat(items.path("items").size()).isEqualTo(3);
        fever(api, "", key, Map.of("mark", "item", "as", "read", "id", String.valueOf(FeverTestIds.of(ids.get(2)))));
        assertThat(idList(fever(api, "&unread_item_ids", key, Map.of()).json().path("unread_item_ids").asString()))
                .containsExactly(FeverTestIds.of(ids.get(1)));
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(1);
        JsonNode first = StreamSupport.stream(api.get("/api/v1/timelines/home?limit=10", alice.token()).json().spliterator(), false)
                .filter(item -> item.path("id").asString().equals(ids.get(0).toString())).findFirst().orElseThrow();
        assertThat(first.path("read").asBoolean()).as("marked through Google Reader").isTrue();
    }

    private static List<String> refs(JsonNode answer) {
        return StreamSupport.stream(answer.path("itemRefs").spliterator(), false).map(r -> r.path("id").asString()).toList();
    }

    private static List<Long> idList(String commaSeparated) {
        return commaSeparated.isEmpty() ? List.of() : Arrays.stream(commaSeparated.split(",")).map(Long::parseLong).toList();
    }

    private static ApiResponse fever(ApiClient api, String flags, String apiKey, Map<String, String> fields) {
        StringBuilder form = new StringBuilder("api_key=").append(apiKey);
        fields.forEach((name, value) -> form.append('&').append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        ApiResponse response = api.send(api.builder("/fever/?api" + flags, null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form.toString())));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.json().path("auth").asInt()).isEqualTo(1);
        return response;
    }

    private static String feverKey(ApiClient api, TestUser user) throws Exception {
        ApiResponse created = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Reeder\",\"scopes\":[\"read\",\"write\"],\"fever\":true}")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        byte[] digest = MessageDigest.getInstance("MD5")
                .digest((user.username() + ":" + created.json().path("token").asString()).getBytes(StandardCharsets.UTF_8));
        return String.format("%032x", new BigInteger(1, digest));
    }
}
