package dev.tributary.api.folder;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class FolderApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired Folders folders;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void foldersAreCreatedListedRenamedAndDeleted() {
        TestUser alice = api.newUser("fold");

        ApiResponse created = api.post("/api/v1/folders", alice.token(), Map.of("name", "  Tech  "));
        ApiResponse same = api.post("/api/v1/folders", alice.token(), Map.of("name", "TECH"));
        String tech = created.json().path("id").asString();
        String news = api.post("/api/v1/folders", alice.token(), Map.of("name", "News")).json().path("id").asString();
        ApiResponse renamed = api.send("PATCH", "/api/v1/folders/" + tech, alice.token(), Map.of("name", "Technology"), "application/json");
        ApiResponse clash = api.send("PATCH", "/api/v1/folders/" + news, alice.token(), Map.of("name", "technology"), "application/json");

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("name").asString()).isEqualTo("Tech");
        assertThat(tech).matches("[0-9]+");
        assertThat(same.status()).isEqualTo(409);
        assertThat(same.contentType()).startsWith("application/problem+json");
        assertThat(renamed.status()).as(renamed.toString()).isEqualTo(200);
        assertThat(renamed.json().path("name").asString()).isEqualTo("Technology");
        assertThat(clash.status()).isEqualTo(409);
        assertThat(names(api.get("/api/v1/folders", alice.token()).json())).containsExactly("News", "Technology");
        assertThat(api.delete("/api/v1/folders/" + tech, alice.token()).status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/folders/" + tech, alice.token()).status()).isEqualTo(404);
        assertThat(names(api.get("/api/v1/folders", alice.token()).json())).containsExactly("News");
    }

    @Test
    void otherPeoplesFoldersAreNotFound() {
        TestUser alice = api.newUser("foldo");
        TestUser bob = api.newUser("foldo");
        String bobs = api.post("/api/v1/folders", bob.token(), Map.of("name", "Bob's")).json().path("id").asString();
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        String subscription = subscriptionOf(alice, feed).path("id").asString();

        List<ApiResponse> answers = List.of(
                api.send("PATCH", "/api/v1/folders/" + bobs, alice.token(), Map.of("name", "mine"), "application/json"),
                api.delete("/api/v1/folders/" + bobs, alice.token()),
                api.get("/api/v1/timelines/home?folder_id=" + bobs, alice.token()),
                api.get("/api/v1/timelines/home?folder_id=999999999999", alice.token()));
        ApiResponse filing = api.send("PATCH", "/api/v1/subscriptions/" + subscription, alice.token(),
                Map.of("folder_ids", List.of(bobs)), "application/json");

        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
            assertThat(answer.contentType()).startsWith("application/problem+json");
        });
        assertThat(filing.status()).as(filing.toString()).isEqualTo(422);
        assertThat(filing.json().path("reason").asString()).isEqualTo("no_such_folder");
        assertThat(names(api.get("/api/v1/folders", bob.token()).json())).containsExactly("Bob's");
        assertThat(api.send("PATCH", "/api/v1/subscriptions/" + subscription, bob.token(), Map.of("title", "x"), "application/json")
                .status()).isEqualTo(404);
    }

    @Test
    void hostileAndOversizeNamesAndBodiesAreProblems() {
        TestUser alice = api.newUser("foldh");
        String hostile = "<img src=x onerror=alert(1)> & \"quotes\"";

        ApiResponse kept = api.post("/api/v1/folders", alice.token(), Map.of("name", hostile));
        Map<String, Object> badNames = new HashMap<>();
        for (Object name : List.of("", "   ", "x".repeat(101), "tab\there", "nul\u0000", "bell\u0007", List.of("a"))) {
            ApiResponse answer = api.post("/api/v1/folders", alice.token(), Map.of("name", name));
            badNames.put(String.valueOf(name), answer.status());
            assertThat(answer.status()).as(answer.toString()).isBetween(400, 422);
            assertThat(answer.contentType()).startsWith("application/problem+json");
        }
        ApiResponse control = api.post("/api/v1/folders", alice.token(), Map.of("name", "a\u0001b"));
        ApiResponse missing = api.post("/api/v1/folders", alice.token(), Map.of());
        ApiResponse unknown = api.post("/api/v1/folders", alice.token(), Map.of("name", "ok", "colour", "red"));
        ApiResponse huge = api.post("/api/v1/folders", alice.token(), Map.of("name", "x".repeat(3_000_000)));
        ApiResponse malformed = api.post("/api/v1/folders", alice.token(), "{\"name\":");

        assertThat(kept.status()).isEqualTo(201);
        assertThat(kept.json().path("name").asString()).as("kept as text").isEqualTo(hostile);
        assertThat(badNames.get("x".repeat(101))).isEqualTo(422);
        assertThat(control.status()).isEqualTo(422);
        assertThat(control.json().path("errors").get(0).path("field").asString()).isEqualTo("name");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(huge.status()).isEqualTo(413);
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(names(api.get("/api/v1/folders", alice.token()).json())).containsExactly(hostile);
    }

    @Test
    void aPersonHasAtMostAHundredFolders() {
        TestUser alice = api.newUser("foldl");
        for (int i = 0; i < Folders.MAX_FOLDERS; i++) {
            folders.create(alice.numericId(), "folder " + i);
        }

        ApiResponse tooMany = api.post("/api/v1/folders", alice.token(), Map.of("name", "one more"));

        assertThat(tooMany.status()).isEqualTo(422);
        assertThat(tooMany.json().path("reason").asString()).isEqualTo("too_many_folders");
        assertThat(api.get("/api/v1/folders", alice.token()).json().size()).isEqualTo(Folders.MAX_FOLDERS);
    }

    @Test
    void subscriptionsTakeATitleAndFoldersOnPatchAndKeepThemWhenAFolderGoes() {
        TestUser alice = api.newUser("folds");
        String news = api.post("/api/v1/folders", alice.token(), Map.of("name", "News")).json().path("id").asString();
        String tech = api.post("/api/v1/folders", alice.token(), Map.of("name", "Tech")).json().path("id").asString();
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        String id = subscriptionOf(alice, feed).path("id").asString();

        ApiResponse patched = api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(),
                Map.of("title", " My feed ", "folder_ids", List.of(tech, news)), "application/json");
        ApiResponse titleOnly = api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(),
                Map.of("title", "Renamed"), "application/json");
        ApiResponse badTitle = api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(),
                Map.of("title", "x".repeat(201), "folder_ids", List.of()), "application/json");
        ApiResponse badId = api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(),
                Map.of("folder_ids", List.of("not-an-id")), "application/json");

        assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
        assertThat(patched.json().path("title").asString()).isEqualTo("My feed");
        assertThat(names(patched.json().path("folders"))).containsExactly("News", "Tech");
        assertThat(names(titleOnly.json().path("folders"))).as("folders left out: unchanged").containsExactly("News", "Tech");
        assertThat(titleOnly.json().path("title").asString()).isEqualTo("Renamed");
        assertThat(badTitle.status()).isEqualTo(422);
        assertThat(badId.status()).isEqualTo(400);
        assertThat(names(subscriptionOf(alice, feed).path("folders"))).as("a refused patch changes nothing").containsExactly("News", "Tech");

        api.delete("/api/v1/folders/" + news, alice.token());
        JsonNode after = subscriptionOf(alice, feed);
        assertThat(names(after.path("folders"))).containsExactly("Tech");
        assertThat(after.path("title").asString()).isEqualTo("Renamed");

        ApiResponse reset = api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(), Map.of("title", ""), "application/json");
        assertThat(reset.json().path("title").isNull()).isTrue();

        assertThat(api.delete("/api/v1/subscriptions/" + id, alice.token()).status()).isEqualTo(204);
        deliveries.follow(alice, feed);
        assertThat(subscriptionOf(alice, feed).path("folders").size()).as("unsubscribing left the folders").isZero();
    }

    @Test
    void subscribingCanNameATitleAndFolders() {
        TestUser alice = api.newUser("foldp");
        TestUser bob = api.newUser("foldp");
        String friends = api.post("/api/v1/folders", alice.token(), Map.of("name", "Friends")).json().path("id").asString();

        ApiResponse created = api.post("/api/v1/subscriptions", alice.token(),
                Map.of("user", bob.username(), "title", "Bobby", "folder_ids", List.of(friends)));
        ApiResponse refused = api.post("/api/v1/subscriptions", alice.token(),
                Map.of("user", api.newUser("foldp").username(), "folder_ids", List.of("123456789")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("title").asString()).isEqualTo("Bobby");
        assertThat(names(created.json().path("folders"))).containsExactly("Friends");
        assertThat(refused.status()).isEqualTo(422);
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).as("a refused subscribe subscribes nothing").isEqualTo(1);
    }

    @Test
    void theHomeTimelineFiltersByFolderAndUnreadCountsEachFolder() {
        TestUser alice = api.newUser("foldt");
        long one = deliveries.feed();
        long two = deliveries.feed();
        long other = deliveries.feed();
        List.of(one, two, other).forEach(feed -> deliveries.follow(alice, feed));
        String news = api.post("/api/v1/folders", alice.token(), Map.of("name", "News")).json().path("id").asString();
        String empty = api.post("/api/v1/folders", alice.token(), Map.of("name", "Empty")).json().path("id").asString();
        for (long feed : List.of(one, two)) {
            api.send("PATCH", "/api/v1/subscriptions/" + subscriptionOf(alice, feed).path("id").asString(), alice.token(),
                    Map.of("folder_ids", List.of(news)), "application/json");
        }
        List<Long> ofOne = deliveries.deliver(one, List.of(alice), entry(MediaType.TEXT), entry(MediaType.IMAGE));
        List<Long> ofTwo = deliveries.deliver(two, List.of(alice), entry(MediaType.TEXT));
        deliveries.deliver(other, List.of(alice), entry(MediaType.TEXT));
        api.post("/api/v1/items/" + ofOne.getFirst() + "/read", alice.token(), null);

        JsonNode page = api.get("/api/v1/timelines/home?folder_id=" + news, alice.token()).json();
        JsonNode unreadImages = api.get("/api/v1/timelines/home?unread=true&media=image&folder_id=" + news, alice.token()).json();
        JsonNode none = api.get("/api/v1/timelines/home?folder_id=" + empty, alice.token()).json();
        JsonNode unread = api.get("/api/v1/unread", alice.token()).json();

        assertThat(Deliveries.ids(page)).containsExactly(ofTwo.getFirst().toString(), ofOne.get(1).toString(), ofOne.getFirst().toString());
        assertThat(Deliveries.ids(unreadImages)).containsExactly(ofOne.get(1).toString());
        assertThat(none.size()).isZero();
        long sum = unread.path("by_source").path(Long.toString(one)).asLong() + unread.path("by_source").path(Long.toString(two)).asLong();
        assertThat(unread.path("by_folder").path(news).asLong()).isEqualTo(sum).isEqualTo(2);
        assertThat(unread.path("by_folder").has(empty)).as("zeros are left out").isFalse();
        assertThat(api.get("/api/v1/timelines/home?folder_id=abc", alice.token()).status()).isEqualTo(400);
    }

    private JsonNode subscriptionOf(TestUser user, long sourceId) {
        for (JsonNode subscription : api.get("/api/v1/subscriptions", user.token()).json()) {
            if (subscription.path("source").path("id").asString().equals(Long.toString(sourceId))) {
                return subscription;
            }
        }
        throw new AssertionError("no subscription of " + user.username() + " to " + sourceId);
    }

    private static List<String> names(JsonNode folders) {
        return folders.valueStream().map(folder -> folder.path("name").asString()).toList();
    }
}
