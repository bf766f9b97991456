package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Undoing a marker ("mark all read", "older than a day / a week") restores exactly what it
 * marked, whatever was loaded: over random inboxes (some entries read by hand first, markers of
 * everything, one source or one folder, up to a random entry), the counts and the unread entries
 * listed after the undo equal those before the marker.
 */
@ApiTest
class MarkerUndoApiTest {

    private static final MediaType[] TYPES = {MediaType.TEXT, MediaType.LINK, MediaType.IMAGE};

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void undoingAMarkerRestoresTheCountsAndTheUnreadListOfBefore() {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int round = 0; round < 6; round++) {
            String context = "seed " + seed + ", round " + round;
            TestUser reader = api.newUser("undo");
            List<Long> feeds = List.of(deliveries.feed(), deliveries.feed(), deliveries.feed());
            feeds.forEach(feed -> deliveries.follow(reader, feed));
            String folder = api.post("/api/v1/folders", reader.token(), Map.of("name", "Two")).json().path("id").asString();
            Map<Long, String> subscriptionIds = new HashMap<>();
            api.get("/api/v1/subscriptions", reader.token()).json().forEach(s ->
                    subscriptionIds.put(Long.parseLong(s.path("source").path("id").asString()), s.path("id").asString()));
            for (long feed : feeds.subList(0, 2)) {
                ApiResponse filed = api.send("PATCH", "/api/v1/subscriptions/" + subscriptionIds.get(feed), reader.token(),
                        Map.of("folder_ids", List.of(folder)), "application/json");
                assertThat(filed.status()).as(filed.toString()).isEqualTo(200);
            }

            Map<Long, Long> sourceOf = new HashMap<>();
            for (long feed : feeds) {
                NewItem[] entries = new NewItem[5 + random.nextInt(20)];
                for (int i = 0; i < entries.length; i++) {
                    entries[i] = Deliveries.entry(TYPES[random.nextInt(TYPES.length)]);
                }
                deliveries.deliver(feed, List.of(reader), entries).forEach(id -> sourceOf.put(id, feed));
            }
            List<Long> all = new ArrayList<>(new TreeSet<>(sourceOf.keySet()));
            // Some read by hand first: the undo must leave them read.
            Set<Long> readBefore = new HashSet<>();
            for (long id : all) {
                if (random.nextInt(100) < 35) {
                    assertThat(api.post("/api/v1/items/" + id + "/read", reader.token(), null).status()).isEqualTo(204);
                    readBefore.add(id);
                }
            }
            JsonNode countsBefore = api.get("/api/v1/unread", reader.token()).json();
            Set<String> unreadBefore = unreadIds(api, reader);

            long upTo = all.get(random.nextInt(all.size()));
            int scope = random.nextInt(3);
            Map<String, Object> marker = new HashMap<>(Map.of("up_to_id", String.valueOf(upTo)));
            Set<Long> inScope = new HashSet<>(feeds);
            if (scope == 1) {
                marker.put("source_id", String.valueOf(feeds.get(2)));
                inScope = Set.of(feeds.get(2));
            } else if (scope == 2) {
                marker.put("folder_id", folder);
                inScope = Set.of(feeds.get(0), feeds.get(1));
            }
            Set<Long> scoped = inScope;
            long expected = all.stream().filter(id -> id <= upTo && !readBefore.contains(id)
                    && scoped.contains(sourceOf.get(id))).count();
            ApiResponse marked = api.post("/api/v1/markers", reader.token(), marker);
            assertThat(marked.status()).as(context + ": " + marked).isEqualTo(200);
            assertThat(marked.json().path("marked").asLong()).as(context).isEqualTo(expected);
            assertThat(api.get("/api/v1/unread", reader.token()).json().path("total").asLong())
                    .as(context).isEqualTo(countsBefore.path("total").asLong() - expected);
            if (expected == 0) {
                assertThat(marked.json().path("undo_id").isNull()).as(context + ": nothing to undo").isTrue();
                continue;
            }
            String undoId = marked.json().path("undo_id").asString();

            TestUser other = api.newUser("undox");
            assertThat(api.delete("/api/v1/markers/" + undoId, other.token()).status()).as("another's marker").isEqualTo(404);
            ApiResponse undone = api.delete("/api/v1/markers/" + undoId, reader.token());
            assertThat(undone.status()).as(context + ": " + undone).isEqualTo(200);
            assertThat(undone.json().path("unmarked").asLong()).as(context).isEqualTo(expected);
            assertThat(api.get("/api/v1/unread", reader.token()).json()).as(context).isEqualTo(countsBefore);
            assertThat(unreadIds(api, reader)).as(context).isEqualTo(unreadBefore);
            for (long id : readBefore) {
                assertThat(api.get("/api/v1/items/" + id, reader.token()).json().path("read").asBoolean())
                        .as(context + ": read before, read after").isTrue();
            }
            assertThat(api.delete("/api/v1/markers/" + undoId, reader.token()).status()).as("undone once").isEqualTo(404);
        }
    }

    @Test
    void anUnknownOrMalformedUndoIsANotFoundProblem() {
        ApiClient api = new ApiClient(port);
        TestUser reader = api.newUser("undonf");
        for (String id : List.of("0123456789abcdef0123456789abcdef", "nope", "%2e%2e")) {
            ApiResponse answer = api.delete("/api/v1/markers/" + id, reader.token());
            assertThat(answer.status()).as(answer.toString()).isIn(400, 404);
            assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        }
    }

    /** Every unread entry the caller's inbox lists (fewer than 100 here: one page). */
    private static Set<String> unreadIds(ApiClient api, TestUser reader) {
        Set<String> ids = new HashSet<>(Deliveries.ids(api.get("/api/v1/timelines/home?unread=true&limit=100", reader.token()).json()));
        assertThat(ids).hasSizeLessThan(100);
        return ids;
    }
}
