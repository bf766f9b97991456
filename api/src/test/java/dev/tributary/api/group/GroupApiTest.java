package dev.tributary.api.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.storage.testing.Await;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

@ApiTest
class GroupApiTest {

    @LocalServerPort int port;
    @Autowired HomeFeed readState;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void creatingAGroupMakesItsSourceAndTheOwnerItsFirstMember() {
        TestUser owner = api.newUser("gown");

        ApiResponse created = api.post("/api/v1/groups", owner.token(), Map.of("name", "  Hikers  "));
        String id = created.json().path("id").asString();
        ApiResponse read = api.get("/api/v1/groups/" + id, api.newUser("gread").token());
        ApiResponse mine = api.get("/api/v1/groups", owner.token());

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("name").asString()).isEqualTo("Hikers");
        assertThat(created.json().path("source_id").isString()).isTrue();
        assertThat(created.json().path("owner_id").asString()).isEqualTo(owner.id());
        assertThat(created.json().has("created_at")).isTrue();
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().path("name").asString()).isEqualTo("Hikers");
        assertThat(mine.json().valueStream().map(g -> g.path("id").asString())).containsExactly(id);
        assertThat(api.get("/api/v1/sources/" + created.json().path("source_id").asString(), owner.token())
                .json().path("kind").asString()).isEqualTo("group");
    }

    /** Groups refuse a name that strips to nothing with IllegalArgumentException: the API must say 400 first. */
    @Test
    void aNameOfOnlyWhitespaceIsA400() {
        TestUser owner = api.newUser("gblank");

        for (String blank : List.of("", "   ", "\u2003\u3000", "\t\n")) {
            ApiResponse refused = api.post("/api/v1/groups", owner.token(), Map.of("name", blank));

            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().path("errors").findValuesAsString("field")).containsExactly("name");
        }
    }

    @Test
    void membersPostToTheGroupAndEveryMemberReceivesIt() {
        TestUser owner = api.newUser("gpost");
        TestUser bob = api.newUser("gpost");
        String id = api.newGroup(owner, "Cooks", true);

        ApiResponse joined = api.post("/api/v1/groups/" + id + "/members", bob.token(), Map.of("username", bob.username()));
        ApiResponse joinedAgain = api.post("/api/v1/groups/" + id + "/members", bob.token(), Map.of("username", bob.username()));
        ApiResponse posted = api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "soup tonight", "url", "https://soup.example/"));
        ApiResponse feed = api.get("/api/v1/groups/" + id + "/feed", api.newUser("outsider").token());

        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(joined.json().path("username").asString()).isEqualTo(bob.username());
        assertThat(joinedAgain.status()).isEqualTo(200);
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        assertThat(posted.json().path("source").path("kind").asString()).isEqualTo("group");
        assertThat(posted.json().path("source").path("title").asString()).isEqualTo("Cooks");
        assertThat(posted.json().path("author").asString()).isEqualTo(bob.username());
        assertThat(posted.json().path("media_type").asString()).isEqualTo("link");
        assertThat(feed.status()).isEqualTo(200);
        assertThat(feed.json().valueStream().map(i -> i.path("id").asString())).containsExactly(posted.json().path("id").asString());
        long itemId = Long.parseLong(posted.json().path("id").asString());
        Await.until("the group post in the owner's inbox", () -> readState.holds(owner.numericId(), itemId));
        Await.until("the group post in the member's inbox", () -> readState.holds(bob.numericId(), itemId));
        assertThat(api.get("/api/v1/groups", bob.token()).json().valueStream().map(g -> g.path("id").asString())).containsExactly(id);
    }

    @Test
    void membersAreListedInPagesWithANextLink() {
        TestUser owner = api.newUser("glist");
        TestUser bob = api.newUser("glist");
        TestUser carol = api.newUser("glist");
        String id = api.newGroup(owner, "Listed", true);
        api.post("/api/v1/groups/" + id + "/members", bob.token(), Map.of("username", bob.username()));
        api.post("/api/v1/invitations/" + invite(owner, carol, id) + "/accept", carol.token(), Map.of());

        ApiResponse first = api.get("/api/v1/groups/" + id + "/members?limit=2", carol.token());
        String next = first.header("Link").replaceAll("^<([^>]+)>.*$", "$1");
        ApiResponse second = api.get(next.substring(next.indexOf("/api/")), carol.token());

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.json().findValuesAsString("username")).hasSize(2).contains(owner.username());
        assertThat(second.json().findValuesAsString("username")).hasSize(1);
        List<String> everyone = new java.util.ArrayList<>(first.json().findValuesAsString("username"));
        everyone.addAll(second.json().findValuesAsString("username"));
        assertThat(everyone).containsExactlyInAnyOrder(owner.username(), bob.username(), carol.username());
        assertThat(api.get("/api/v1/groups/" + id + "/members?limit=0", carol.token()).status()).isEqualTo(400);
        assertThat(api.get("/api/v1/groups/" + id + "/members?since_id=x", carol.token()).status()).isEqualTo(400);
        assertThat(api.get("/api/v1/groups/99999999/members", carol.token()).status()).isEqualTo(404);
    }

    @Test
    void onlyMembersPost() {
        TestUser owner = api.newUser("gmem");
        TestUser outsider = api.newUser("gmem");
        String id = api.newGroup(owner, "Members only", true);

        ApiResponse attempt = api.post("/api/v1/groups/" + id + "/posts", outsider.token(), Map.of("text", "let me in"));

        assertThat(attempt.status()).isEqualTo(403);
        assertThat(attempt.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/api/v1/groups/" + id + "/feed", owner.token()).json().size()).isZero();
    }

    @Test
    void theOwnerInvitesAndRemovesOthersButOthersOnlyThemselves() {
        TestUser owner = api.newUser("gadm");
        TestUser bob = api.newUser("gadm");
        TestUser carol = api.newUser("gadm");
        String id = api.newGroup(owner, "Run by the owner", true);
        String members = "/api/v1/groups/" + id + "/members";

        ApiResponse ownerInvitesBob = api.post(members, owner.token(), Map.of("username", bob.username()));
        ApiResponse bobPostsInvited = api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "not yet"));
        ApiResponse bobAccepts = api.post("/api/v1/invitations/" + ownerInvitesBob.json().path("id").asString() + "/accept",
                bob.token(), Map.of());
        ApiResponse ownerInvitesMember = api.post(members, owner.token(), Map.of("username", bob.username()));
        ApiResponse bobAddsCarol = api.post(members, bob.token(), Map.of("username", carol.username()));
        ApiResponse carolRemovesBob = api.delete(members + "/" + bob.username(), carol.token());
        ApiResponse bobRemovesOwner = api.delete(members + "/" + owner.username(), bob.token());
        ApiResponse ownerLeaves = api.delete(members + "/" + owner.username(), owner.token());
        ApiResponse bobPostsStill = api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "still here"));
        ApiResponse ownerRemovesBob = api.delete(members + "/" + bob.username(), owner.token());
        ApiResponse bobPostsAfter = api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "gone"));
        ApiResponse removeAgain = api.delete(members + "/" + bob.username(), owner.token());

        assertThat(ownerInvitesBob.status()).as(ownerInvitesBob.toString()).isEqualTo(202);
        assertThat(ownerInvitesBob.json().path("username").asString()).isEqualTo(bob.username());
        assertThat(ownerInvitesBob.json().path("invited_by").asString()).isEqualTo(owner.username());
        assertThat(bobPostsInvited.status()).isEqualTo(403);
        assertThat(bobAccepts.status()).as(bobAccepts.toString()).isEqualTo(201);
        assertThat(ownerInvitesMember.status()).isEqualTo(200);
        assertThat(bobAddsCarol.status()).isEqualTo(403);
        assertThat(carolRemovesBob.status()).isEqualTo(403);
        assertThat(bobRemovesOwner.status()).isEqualTo(403);
        assertThat(ownerLeaves.status()).isEqualTo(409);
        assertThat(bobPostsStill.status()).isEqualTo(201);
        assertThat(ownerRemovesBob.status()).isEqualTo(204);
        assertThat(bobPostsAfter.status()).isEqualTo(403);
        assertThat(removeAgain.status()).isEqualTo(404);
        assertThat(api.get("/api/v1/groups", bob.token()).json().size()).isZero();
    }

    @Test
    void aMemberLeaves() {
        TestUser owner = api.newUser("gleave");
        TestUser bob = api.newUser("gleave");
        String id = api.newGroup(owner, "Come and go", true);
        api.post("/api/v1/groups/" + id + "/members", bob.token(), Map.of("username", bob.username()));

        ApiResponse left = api.delete("/api/v1/groups/" + id + "/members/" + bob.username(), bob.token());

        assertThat(left.status()).isEqualTo(204);
        assertThat(api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "x")).status()).isEqualTo(403);
    }

    @Test
    void badGroupRequests() {
        TestUser owner = api.newUser("gbad");
        String id = api.newGroup(owner, "Strict", true);
        String itemId = api.post("/api/v1/posts", owner.token(), Map.of("text", "an item")).json().path("id").asString();

        List<ApiResponse> bad = List.of(
                api.post("/api/v1/groups", owner.token(), Map.of("name", "   ")),
                api.post("/api/v1/groups", owner.token(), Map.of("name", "n".repeat(101))),
                api.post("/api/v1/groups", owner.token(), Map.of()),
                api.post("/api/v1/groups", owner.token(), "{\"name\": 42, \"private\": true}"),
                api.post("/api/v1/groups", owner.token(), "{\"name\": "),
                api.post("/api/v1/groups/" + id + "/members", owner.token(), Map.of("username", "u".repeat(1000))),
                api.post("/api/v1/groups/" + id + "/posts", owner.token(), Map.of("text", "")),
                api.post("/api/v1/groups/" + id + "/posts", owner.token(), Map.of("text", "x", "url", "data:text/html,hi")),
                api.get("/api/v1/groups/" + id + "/feed?limit=abc", owner.token()));
        for (ApiResponse response : bad) {
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
        assertThat(api.post("/api/v1/groups/" + id + "/members", owner.token(), Map.of("username", "nobody_named_so")).status())
                .isEqualTo(422);
        assertThat(api.delete("/api/v1/groups/" + id + "/members/nobody_named_so", owner.token()).status()).isEqualTo(404);
        for (String missing : List.of("abc", "0", "999999999999", itemId)) {
            assertThat(api.get("/api/v1/groups/" + missing, owner.token()).status()).as(missing).isEqualTo(404);
            assertThat(api.get("/api/v1/groups/" + missing + "/feed", owner.token()).status()).isEqualTo(404);
            assertThat(api.post("/api/v1/groups/" + missing + "/posts", owner.token(), Map.of("text", "x")).status()).isEqualTo(404);
            assertThat(api.post("/api/v1/groups/" + missing + "/members", owner.token(), Map.of("username", owner.username())).status())
                    .isEqualTo(404);
        }
        assertThat(api.send("POST", "/api/v1/groups", owner.token(), "name=x", "text/plain").status()).isEqualTo(415);
    }

    @Test
    void theGroupFeedPagesFarBack() {
        TestUser owner = api.newUser("gfeed");
        String id = api.newGroup(owner, "Chatty", true);
        for (int i = 1; i <= 4; i++) {
            api.post("/api/v1/groups/" + id + "/posts", owner.token(), Map.of("text", "message " + i));
        }

        ApiResponse page = api.get("/api/v1/groups/" + id + "/feed?limit=3", owner.token());
        String oldest = page.json().get(2).path("id").asString();
        ApiResponse rest = api.get("/api/v1/groups/" + id + "/feed?limit=3&max_id=" + oldest, owner.token());

        assertThat(page.json().valueStream().map(i -> i.path("summary").asString()))
                .containsExactly("<p>message 4</p>", "<p>message 3</p>", "<p>message 2</p>");
        assertThat(page.header("Link")).contains("rel=\"next\"").contains("max_id=" + oldest);
        assertThat(rest.json().valueStream().map(i -> i.path("summary").asString())).containsExactly("<p>message 1</p>");
    }

    @Test
    void membersDeleteTheirOwnGroupPostsButNotOthers() {
        TestUser owner = api.newUser("gdel");
        TestUser bob = api.newUser("gdel");
        String id = api.newGroup(owner, "Deletions", true);
        api.post("/api/v1/groups/" + id + "/members", bob.token(), Map.of("username", bob.username()));
        String ownersPost = api.post("/api/v1/groups/" + id + "/posts", owner.token(), Map.of("text", "owner's")).json().path("id").asString();
        String bobsPost = api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "bob's")).json().path("id").asString();

        assertThat(api.delete("/api/v1/posts/" + ownersPost, bob.token()).status()).isEqualTo(403);
        assertThat(api.delete("/api/v1/posts/" + bobsPost, bob.token()).status()).isEqualTo(204);
        assertThat(api.get("/api/v1/groups/" + id + "/feed", owner.token()).json().valueStream().map(i -> i.path("id").asString()))
                .containsExactly(ownersPost);
    }

    /** Issue 17: an owner used to add anyone, pushing the group's posts into a stranger's home timeline. */
    @Test
    void anInvitationAddsNobodyUntilAccepted() {
        TestUser owner = api.newUser("ginv");
        TestUser bob = api.newUser("ginv");
        String id = api.newGroup(owner, "Invitations", true);

        ApiResponse invited = api.post("/api/v1/groups/" + id + "/members", owner.token(), Map.of("username", bob.username()));
        ApiResponse again = api.post("/api/v1/groups/" + id + "/members", owner.token(), Map.of("username", bob.username()));
        api.post("/api/v1/groups/" + id + "/posts", owner.token(), Map.of("text", "before accepting"));
        ApiResponse pending = api.get("/api/v1/invitations", bob.token());

        assertThat(invited.status()).as(invited.toString()).isEqualTo(202);
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.json().path("id").asString()).isEqualTo(invited.json().path("id").asString());
        assertThat(pending.json().valueStream().map(i -> i.path("group_name").asString())).containsExactly("Invitations");
        assertThat(api.get("/api/v1/invitations", owner.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/groups", bob.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/subscriptions", bob.token()).json().valueStream()
                .map(s -> s.path("source").path("kind").asString())).doesNotContain("group");

        ApiResponse accepted = api.post("/api/v1/invitations/" + invited.json().path("id").asString() + "/accept", bob.token(), Map.of());

        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
        assertThat(api.get("/api/v1/groups", bob.token()).json().valueStream().map(g -> g.path("id").asString())).containsExactly(id);
        assertThat(api.get("/api/v1/invitations", bob.token()).json().size()).isZero();
        assertThat(api.post("/api/v1/invitations/" + invited.json().path("id").asString() + "/accept", bob.token(), Map.of())
                .status()).isEqualTo(404);
    }

    @Test
    void aDeclinedInvitationLeavesNoMembershipAndABlockRefusesTheNext() {
        TestUser owner = api.newUser("gdecl");
        TestUser bob = api.newUser("gdecl");
        String id = api.newGroup(owner, "Pushy", true);
        String members = "/api/v1/groups/" + id + "/members";

        String first = invite(owner, bob, id);
        ApiResponse declined = api.delete("/api/v1/invitations/" + first, bob.token());
        String second = invite(owner, bob, id);
        ApiResponse blocked = api.delete("/api/v1/invitations/" + second + "?block=true", bob.token());
        ApiResponse third = api.post(members, owner.token(), Map.of("username", bob.username()));

        assertThat(declined.status()).isEqualTo(204);
        assertThat(second).isNotEqualTo(first);
        assertThat(blocked.status()).isEqualTo(204);
        assertThat(third.status()).as(third.toString()).isEqualTo(422);
        assertThat(third.json().path("reason").asString()).isEqualTo("invitations_refused");
        assertThat(api.get("/api/v1/invitations", bob.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/groups", bob.token()).json().size()).isZero();

        assertThat(api.delete("/api/v1/groups/" + id + "/block", bob.token()).status()).isEqualTo(204);
        assertThat(api.post(members, owner.token(), Map.of("username", bob.username())).status()).isEqualTo(202);
        assertThat(api.delete("/api/v1/groups/" + id + "/block", bob.token()).status()).isEqualTo(404);
    }

    @Test
    void aMemberWhoLeavesWithABlockCannotBeInvitedBack() {
        TestUser owner = api.newUser("gblk");
        TestUser bob = api.newUser("gblk");
        String id = api.newGroup(owner, "Clingy", true);
        String members = "/api/v1/groups/" + id + "/members";
        api.post("/api/v1/invitations/" + invite(owner, bob, id) + "/accept", bob.token(), Map.of());

        ApiResponse left = api.delete(members + "/" + bob.username() + "?block=true", bob.token());
        ApiResponse reinvited = api.post(members, owner.token(), Map.of("username", bob.username()));
        ApiResponse rejoined = api.post(members, bob.token(), Map.of("username", bob.username()));

        assertThat(left.status()).isEqualTo(204);
        assertThat(reinvited.status()).isEqualTo(422);
        assertThat(reinvited.json().path("reason").asString()).isEqualTo("invitations_refused");
        assertThat(rejoined.status()).as("a block binds the group, not the person: they may join again").isEqualTo(201);
    }

    @Test
    void invitationsAreTheirOwnersAlone() {
        TestUser owner = api.newUser("gown2");
        TestUser bob = api.newUser("gown2");
        TestUser mallory = api.newUser("gown2");
        String id = api.newGroup(owner, "Private invitations", true);
        String invitation = invite(owner, bob, id);

        assertThat(api.post("/api/v1/invitations/" + invitation + "/accept", mallory.token(), Map.of()).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/invitations/" + invitation + "/accept", owner.token(), Map.of()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/invitations/" + invitation, mallory.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/invitations", mallory.token()).json().size()).isZero();
        for (String bad : List.of("abc", "0", "-1", "99999999999999999999", "1e3")) {
            ApiResponse response = api.post("/api/v1/invitations/" + bad + "/accept", bob.token(), Map.of());
            assertThat(response.status()).as(bad).isIn(400, 404);
            assertThat(response.contentType()).as(bad).startsWith("application/problem+json");
        }
        assertThat(api.delete("/api/v1/invitations/" + invitation + "?block=maybe", bob.token()).status()).isEqualTo(400);
        assertThat(api.send("PUT", "/api/v1/groups/99999999/block", bob.token(), null, "application/json").status()).isEqualTo(404);
        assertThat(api.get("/api/v1/invitations", null).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/invitations", bob.token()).json().size()).isEqualTo(1);
    }

    private String invite(TestUser owner, TestUser person, String groupId) {
        ApiResponse invited = api.post("/api/v1/groups/" + groupId + "/members", owner.token(), Map.of("username", person.username()));
        assertThat(invited.status()).as(invited.toString()).isEqualTo(202);
        return invited.json().path("id").asString();
    }

    @Test
    void aGroupIsClosedUnlessItsOwnerOpensItAndOnlyOpenOnesAreJoined() {
        TestUser owner = api.newUser("gopen");
        TestUser bob = api.newUser("gopen");
        TestUser carol = api.newUser("gopen");
        ApiResponse created = api.post("/api/v1/groups", owner.token(), Map.of("name", "Quiet"));
        String id = created.json().path("id").asString();
        String members = "/api/v1/groups/" + id + "/members";

        ApiResponse refused = api.post(members, bob.token(), Map.of("username", bob.username()));
        ApiResponse bobOpens = patch("/api/v1/groups/" + id, bob.token(), Map.of("open", true));
        ApiResponse opened = patch("/api/v1/groups/" + id, owner.token(), Map.of("open", true));
        ApiResponse joined = api.post(members, bob.token(), Map.of("username", bob.username()));
        ApiResponse readOpen = api.get("/api/v1/groups/" + id, carol.token());
        ApiResponse closed = patch("/api/v1/groups/" + id, owner.token(), Map.of("open", false));
        ApiResponse closedAgain = patch("/api/v1/groups/" + id, owner.token(), Map.of("open", false));
        ApiResponse bobAgain = api.post(members, bob.token(), Map.of("username", bob.username()));
        ApiResponse carolRefused = api.post(members, carol.token(), Map.of("username", carol.username()));

        assertThat(created.json().path("open").asBoolean(true)).as("closed by default").isFalse();
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().path("reason").asString()).isEqualTo("group_closed");
        assertThat(refused.json().path("detail").asString()).contains("closed");
        assertThat(bobOpens.status()).as("only the owner opens it").isEqualTo(403);
        assertThat(opened.status()).as(opened.toString()).isEqualTo(200);
        assertThat(opened.json().path("open").asBoolean()).isTrue();
        assertThat(joined.status()).as(joined.toString()).isEqualTo(201);
        assertThat(readOpen.json().path("open").asBoolean()).isTrue();
        assertThat(closed.json().path("open").asBoolean(true)).isFalse();
        assertThat(closedAgain.status()).isEqualTo(200);
        assertThat(bobAgain.status()).as("a member stays one when the group closes").isEqualTo(200);
        assertThat(carolRefused.status()).isEqualTo(403);
        assertThat(api.get("/api/v1/groups", bob.token()).json().valueStream().map(g -> g.path("id").asString())).containsExactly(id);
        assertThat(api.get("/api/v1/groups", carol.token()).json().size()).isZero();
    }

    @Test
    void aMemberOfAnOpenGroupLeavesAndMayJoinAgain() {
        TestUser owner = api.newUser("gopl");
        TestUser bob = api.newUser("gopl");
        String id = api.newGroup(owner, "Revolving door", true);
        String members = "/api/v1/groups/" + id + "/members";

        ApiResponse joined = api.post(members, bob.token(), Map.of("username", bob.username()));
        ApiResponse left = api.delete(members + "/" + bob.username(), bob.token());
        ApiResponse postAfter = api.post("/api/v1/groups/" + id + "/posts", bob.token(), Map.of("text", "still?"));
        ApiResponse rejoined = api.post(members, bob.token(), Map.of("username", bob.username()));

        assertThat(joined.status()).isEqualTo(201);
        assertThat(left.status()).isEqualTo(204);
        assertThat(postAfter.status()).isEqualTo(403);
        assertThat(rejoined.status()).isEqualTo(201);
    }

    @Test
    void someoneWhoBlockedAGroupsInvitationsMayStillJoinItWhenOpen() {
        TestUser owner = api.newUser("gopb");
        TestUser bob = api.newUser("gopb");
        ApiResponse created = api.post("/api/v1/groups", owner.token(), Map.of("name", "Persistent"));
        String id = created.json().path("id").asString();
        String members = "/api/v1/groups/" + id + "/members";

        ApiResponse blocked = api.send("PUT", "/api/v1/groups/" + id + "/block", bob.token(), null, null);
        ApiResponse invited = api.post(members, owner.token(), Map.of("username", bob.username()));
        ApiResponse whileClosed = api.post(members, bob.token(), Map.of("username", bob.username()));
        patch("/api/v1/groups/" + id, owner.token(), Map.of("open", true));
        ApiResponse joined = api.post(members, bob.token(), Map.of("username", bob.username()));

        assertThat(blocked.status()).as(blocked.toString()).isIn(200, 204);
        assertThat(invited.status()).isEqualTo(422);
        assertThat(invited.json().path("reason").asString()).isEqualTo("invitations_refused");
        assertThat(whileClosed.status()).isEqualTo(403);
        assertThat(joined.status()).as("a block refuses the owner's asking, not the person's own choice").isEqualTo(201);
    }

    @Test
    void badChangesAndHostileJoinsAreRefusedCleanly() {
        TestUser owner = api.newUser("gopx");
        TestUser bob = api.newUser("gopx");
        String id = api.newGroup(owner, "Careful", true);

        List<ApiResponse> bad = List.of(
                patch("/api/v1/groups/" + id, owner.token(), "{\"open\": \"yes\"}"),
                patch("/api/v1/groups/" + id, owner.token(), "{\"open\": 1}"),
                patch("/api/v1/groups/" + id, owner.token(), "{\"open\": null}"),
                patch("/api/v1/groups/" + id, owner.token(), "{}"),
                patch("/api/v1/groups/" + id, owner.token(), "{\"open\": true, \"owner_id\": \"1\"}"),
                patch("/api/v1/groups/" + id, owner.token(), "[true]"),
                api.post("/api/v1/groups", owner.token(), "{\"name\": \"x\", \"open\": \"true\"}"),
                api.post("/api/v1/groups/" + id + "/members", bob.token(), "{\"username\": [\"" + bob.username() + "\"]}"),
                api.post("/api/v1/groups/" + id + "/members", bob.token(), "{\"username\": \"" + bob.username() + "\", \"force\": true}"));
        for (ApiResponse response : bad) {
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
        for (String missing : List.of("abc", "0", "-1", "99999999999999999999999", "9223372036854775807", "1e3")) {
            ApiResponse patched = patch("/api/v1/groups/" + missing, owner.token(), Map.of("open", true));
            ApiResponse joined = api.post("/api/v1/groups/" + missing + "/members", bob.token(), Map.of("username", bob.username()));
            assertThat(patched.status()).as(missing + " " + patched).isEqualTo(404);
            assertThat(joined.status()).as(missing + " " + joined).isEqualTo(404);
        }
        assertThat(api.get("/api/v1/groups/" + id, bob.token()).json().path("open").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/groups", bob.token()).json().size()).isZero();
    }

    private ApiResponse patch(String path, String token, Object body) {
        return api.send("PATCH", path, token, body, "application/json");
    }

}
