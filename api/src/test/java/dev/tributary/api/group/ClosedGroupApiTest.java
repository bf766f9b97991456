package dev.tributary.api.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.storage.testing.Await;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Issue 52, break 10: a closed group is its current members' alone, on every path that reads it
 * (its feed, members, source, items, comments, likes, stars, search, subscribing by REST and by the
 * Google Reader API, Reader streams, Fever). A stranger is told it has nothing there (404, or the
 * same 422 as a group that does not exist), an anonymous caller is refused before anything, a member
 * reads it all, and leaving takes it away.
 */
@ApiTest
class ClosedGroupApiTest {

    @LocalServerPort int port;
    @Autowired HomeFeed home;
    private ApiClient api;
    private ReaderClient reader;
    private TestUser owner;
    private TestUser member;
    private TestUser stranger;
    private String groupId;
    private String sourceId;
    private String postId;
    private String word;

    @BeforeEach
    void aClosedGroupWithAMembersPost() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
        owner = api.newUser("cgown");
        member = api.newUser("cgmem");
        stranger = api.newUser("cgout");
        JsonNode group = api.post("/api/v1/groups", owner.token(), Map.of("name", "Private hikers")).json();
        assertThat(group.path("open").asBoolean(true)).as("closed by default").isFalse();
        groupId = group.path("id").asString();
        sourceId = group.path("source_id").asString();
        String invitation = api.post("/api/v1/groups/" + groupId + "/members", owner.token(),
                Map.of("username", member.username())).json().path("id").asString();
        assertThat(api.post("/api/v1/invitations/" + invitation + "/accept", member.token(), Map.of()).status()).isEqualTo(201);
        word = "zq" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        ApiResponse posted = api.post("/api/v1/groups/" + groupId + "/posts", member.token(),
                Map.of("text", "secret trail " + word));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        postId = posted.json().path("id").asString();
        Await.until("the post in the member's inbox", () -> home.holds(member.numericId(), Long.parseLong(postId)));
        Await.until("the post found by the member's search", () -> searchIds(member).contains(postId));
    }

    @Test
    void aMemberReadsTheGroupEverywhere() {
        for (String path : readPaths()) {
            ApiResponse answer = api.get(path, member.token());
            assertThat(answer.status()).as(path + " " + answer).isEqualTo(200);
        }
        assertThat(api.get("/api/v1/groups/" + groupId + "/feed", member.token()).body()).contains(word);
        assertThat(api.get("/api/v1/sources/" + sourceId + "/items", owner.token()).body()).contains(word);
        assertThat(api.post("/api/v1/items/" + postId + "/comments", owner.token(), Map.of("text", "see you there")).status())
                .isEqualTo(201);
        assertThat(api.post("/api/v1/items/" + postId + "/like", owner.token(), null).status()).isIn(200, 201);
        String auth = reader.login(member.username(), member.token());
        ApiResponse stream = reader.get("/reader/api/0/stream/contents?output=json&s=" + enc("feed/" + sourceId), auth);
        assertThat(stream.status()).as(stream.toString()).isEqualTo(200);
        assertThat(stream.body()).contains(word);
    }

    @Test
    void aStrangerFindsNothingOnAnyPath() {
        for (String path : readPaths()) {
            ApiResponse answer = api.get(path, stranger.token());
            assertThat(answer.status()).as(path + " " + answer).isEqualTo(404);
            assertThat(answer.body()).as(path).doesNotContain(word);
        }
        assertThat(api.post("/api/v1/items/" + postId + "/comments", stranger.token(), Map.of("text", "let me in")).status())
                .isEqualTo(404);
        assertThat(api.post("/api/v1/items/" + postId + "/like", stranger.token(), null).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/items/" + postId + "/star", stranger.token(), null).status()).isEqualTo(404);
        assertThat(searchIds(stranger)).doesNotContain(postId);

        // Following it is answered exactly as following a group that does not exist.
        ApiResponse follow = api.post("/api/v1/subscriptions", stranger.token(), Map.of("group_id", groupId));
        ApiResponse followNothing = api.post("/api/v1/subscriptions", stranger.token(), Map.of("group_id", "987654321987"));
        assertThat(follow.status()).as(follow.toString()).isEqualTo(422);
        assertThat(follow.json().path("reason").asString()).isEqualTo("no_such_group");
        assertThat(followNothing.json().path("reason").asString()).isEqualTo("no_such_group");
        assertThat(api.get("/api/v1/subscriptions", stranger.token()).json().size()).isZero();

        // The Google Reader API: by the group's page, by its source id, and its stream.
        String auth = reader.login(stranger.username(), stranger.token());
        for (String feed : List.of("feed/" + api.url("/groups/" + groupId), "feed/" + sourceId)) {
            ApiResponse subscribe = readerPost("/reader/api/0/subscription/edit", auth, Map.of("ac", "subscribe", "s", feed));
            assertThat(subscribe.status()).as(feed + " " + subscribe).isBetween(400, 499);
            ApiResponse stream = reader.get("/reader/api/0/stream/contents?output=json&s=" + enc(feed), auth);
            assertThat(stream.status()).as(feed + " " + stream).isEqualTo(404);
            assertThat(stream.body()).doesNotContain(word);
        }
        assertThat(reader.get("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions").size()).isZero();
        assertThat(reader.get("/reader/api/0/stream/contents?output=json", auth).body()).doesNotContain(word);
        assertThat(api.get("/api/v1/subscriptions", stranger.token()).json().size()).as("nothing was followed").isZero();

        // Fever sees only the stranger's inbox, which the group never reached.
        String key = feverKey(stranger);
        assertThat(fever("&items", key).body()).doesNotContain(word).doesNotContain(postId);
        assertThat(fever("&feeds", key).body()).doesNotContain("Private hikers");
        assertThat(home.holds(stranger.numericId(), Long.parseLong(postId))).isFalse();
    }

    @Test
    void anAnonymousCallerIsRefusedBeforeAnything() {
        for (String path : readPaths()) {
            ApiResponse answer = api.get(path, null);
            assertThat(answer.status()).as(path + " " + answer).isEqualTo(401);
            assertThat(answer.body()).as(path).doesNotContain(word);
        }
        ApiResponse stream = reader.get("/reader/api/0/stream/contents?output=json&s=" + enc("feed/" + sourceId), null);
        assertThat(stream.status()).isEqualTo(401);
        assertThat(stream.body()).doesNotContain(word);
        assertThat(api.post("/api/v1/subscriptions", null, Map.of("group_id", groupId)).status()).isEqualTo(401);
    }

    @Test
    void leavingTheGroupTakesAwayItsReading() {
        String auth = reader.login(member.username(), member.token());
        String stream = "/reader/api/0/stream/contents?output=json&s=" + enc("feed/" + sourceId);
        assertThat(reader.get(stream, auth).status()).isEqualTo(200);

        ApiResponse left = api.delete("/api/v1/groups/" + groupId + "/members/" + member.username(), member.token());

        assertThat(left.status()).as(left.toString()).isEqualTo(204);
        for (String path : readPaths()) {
            ApiResponse answer = api.get(path, member.token());
            assertThat(answer.status()).as(path + " " + answer).isEqualTo(404);
        }
        assertThat(api.post("/api/v1/items/" + postId + "/comments", member.token(), Map.of("text", "still here?")).status())
                .isEqualTo(404);
        assertThat(searchIds(member)).doesNotContain(postId);
        assertThat(reader.get(stream, auth).status()).isEqualTo(404);
        ApiResponse again = api.post("/api/v1/subscriptions", member.token(), Map.of("group_id", groupId));
        assertThat(again.json().path("reason").asString()).as("nor can they follow it back").isEqualTo("no_such_group");
        assertThat(api.get("/api/v1/groups/" + groupId + "/feed", owner.token()).status()).as("the owner still reads it").isEqualTo(200);
    }

    @Test
    void closingAnOpenGroupEndsTheFollowingOfNonMembers() {
        JsonNode open = api.post("/api/v1/groups", owner.token(), Map.of("name", "Open for now", "open", true)).json();
        String openId = open.path("id").asString();
        String openSource = open.path("source_id").asString();
        ApiResponse followed = api.post("/api/v1/subscriptions", stranger.token(), Map.of("group_id", openId));
        assertThat(followed.status()).as("an open group is anyone's to follow").isEqualTo(201);
        assertThat(api.get("/api/v1/sources/" + openSource + "/items", stranger.token()).status()).isEqualTo(200);

        ApiResponse closed = api.send("PATCH", "/api/v1/groups/" + openId, owner.token(), Map.of("open", false), "application/json");

        assertThat(closed.status()).as(closed.toString()).isEqualTo(200);
        assertThat(api.get("/api/v1/subscriptions", stranger.token()).json().size()).as("the follow ended").isZero();
        assertThat(api.get("/api/v1/sources/" + openSource + "/items", stranger.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/groups/" + openId + "/feed", stranger.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/groups/" + openId + "/feed", owner.token()).status()).isEqualTo(200);
    }

    /** Every GET that reads the group's content, a member's 200 and anyone else's 404. */
    private List<String> readPaths() {
        return List.of("/api/v1/groups/" + groupId + "/feed", "/api/v1/groups/" + groupId + "/members",
                "/api/v1/sources/" + sourceId, "/api/v1/sources/" + sourceId + "/items", "/api/v1/items/" + postId,
                "/api/v1/items/" + postId + "/comments", "/api/v1/items/" + postId + "/like",
                "/api/v1/items/" + postId + "/star");
    }

    private List<String> searchIds(TestUser user) {
        ApiResponse found = api.get("/api/v1/search?q=" + word, user.token());
        assertThat(found.status()).as(found.toString()).isEqualTo(200);
        return found.json().valueStream().map(item -> item.path("id").asString()).toList();
    }

    private ApiResponse readerPost(String path, String auth, Map<String, String> fields) {
        return reader.post(path, auth, List.copyOf(fields.entrySet()));
    }

    private String feverKey(TestUser user) {
        ApiResponse created = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Reeder\",\"scopes\":[\"read\",\"write\"],\"fever\":true}")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return md5(user.username() + ":" + created.json().path("token").asString());
    }

    private ApiResponse fever(String flags, String key) {
        ApiResponse answer = api.send(api.builder("/fever/?api" + flags, null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + key)));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().path("auth").asInt()).isEqualTo(1);
        return answer;
    }

    private static String md5(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            return String.format("%032x", new BigInteger(1, digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
