package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A group's page: join, post (members only), members, follow, leave, refusals. */
@BrowserTest
class GroupBrowserTest {

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aSecondPersonJoinsAndPostsAndTheGroupShowsIt(Browser browser) {
        TestUser alice = api.newUser("webowner");
        TestUser bob = api.newUser("webjoiner");
        String groupId = api.newGroup(alice, "Knitting circle", true);
        browser.signIn(bob.username(), bob.password());

        browser.open("/groups/" + groupId);
        browser.waitForText("#group-name", "Knitting circle");
        browser.waitForText("#group-role", "You are not a member.");
        assertThat(browser.find("#group-not-member").isDisplayed()).isTrue();
        assertThat(browser.find("#group-post-form").isDisplayed()).as("no post form for non-members").isFalse();
        browser.waitForText("#group-members .member", alice.username());
        assertThat(browser.text("#group-members .member")).contains("owner");
        // An open group's feed is offered, on the page and to feed readers in its head.
        browser.waitUntil("the feed links", () -> browser.find("#group-feed-links").isDisplayed());
        assertThat(browser.find("#group-rss").getAttribute("href")).endsWith("/feeds/groups/" + groupId + ".rss");
        assertThat(browser.find("#group-atom").getAttribute("href")).endsWith("/feeds/groups/" + groupId + ".atom");
        assertThat(browser.all("head link[rel=alternate]")).extracting(link -> link.getAttribute("type") + " " + link.getAttribute("href"))
                .containsExactly("application/atom+xml " + browser.base() + "/feeds/groups/" + groupId + ".atom",
                        "application/rss+xml " + browser.base() + "/feeds/groups/" + groupId + ".rss");
        assertThat(api.get("/feeds/groups/" + groupId + ".atom", null).status()).as("the link works").isEqualTo(200);

        browser.click("#group-join");
        browser.waitForText("#group-role", "You are a member.");
        browser.waitForText("#group-members", bob.username());
        assertThat(browser.all("#group-members .member")).hasSize(2);
        assertThat(browser.exists("#group-join")).isFalse();

        browser.click("#group-post-form button[type=submit]");
        browser.waitForText("#group-post-error", "Write something to post.");

        browser.type("#group-post-text", "Bring your needles on Friday");
        browser.type("#group-post-url", "https://example.org/friday");
        browser.click("#group-post-form button[type=submit]");
        browser.waitForText("#group-items .item", "Bring your needles on Friday");
        assertThat(browser.find("#group-post-error").isDisplayed()).isFalse();
        assertThat(api.get("/api/v1/groups/" + groupId + "/feed", alice.token()).body()).contains("Bring your needles on Friday");

        // The owner sees the post and both members.
        browser.open("/");
        browser.click("#sign-out");
        browser.waitForText(".notice", "You are signed out.");
        browser.signIn(alice.username(), alice.password());
        browser.open("/groups/" + groupId);
        browser.waitForText("#group-items .item", "Bring your needles on Friday");
        browser.waitForText("#group-members", bob.username());
        browser.waitForText("#group-role", "You run this group.");
        assertThat(browser.exists("#group-leave")).as("the owner cannot leave").isFalse();

        browser.resize(375, 800);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void aClosedGroupOffersNoJoinButtonUntilItsOwnerOpensIt(Browser browser) {
        TestUser alice = api.newUser("webclosed");
        TestUser bob = api.newUser("webclosed");
        String groupId = api.post("/api/v1/groups", alice.token(), Map.of("name", "Invitation only")).json().path("id").asString();
        browser.signIn(bob.username(), bob.password());
        browser.open("/groups/" + groupId);
        browser.waitForText("#group-closed", "This group is closed");
        assertThat(browser.exists("#group-join")).isFalse();
        assertThat(browser.find("#group-feed-links").isDisplayed()).as("a closed group's feed is not exported").isFalse();
        assertThat(browser.exists("head link[rel=alternate]")).isFalse();
        assertThat(browser.exists("#group-open-toggle")).as("only the owner opens it").isFalse();

        browser.click("#sign-out");
        browser.waitForText(".notice", "You are signed out.");
        browser.signIn(alice.username(), alice.password());
        browser.open("/groups/" + groupId);
        browser.waitForText("#group-open-toggle", "Open to anyone");
        browser.click("#group-open-toggle");
        browser.waitForText("#group-open-toggle", "Close to newcomers");
        browser.waitUntil("the feed links once open", () -> browser.find("#group-feed-links").isDisplayed());
        assertThat(api.get("/api/v1/groups/" + groupId, bob.token()).json().path("open").asBoolean()).isTrue();

        browser.click("#sign-out");
        browser.waitForText(".notice", "You are signed out.");
        browser.signIn(bob.username(), bob.password());
        browser.open("/groups/" + groupId);
        browser.click("#group-join");
        browser.waitForText("#group-role", "You are a member.");
        assertThat(browser.find("#group-closed").isDisplayed()).isFalse();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void aPostRefusedBecauseTheMemberWasRemovedIsExplained(Browser browser) {
        TestUser alice = api.newUser("webkick");
        TestUser bob = api.newUser("webkick");
        String groupId = api.newGroup(alice, "Strict club", true);
        assertThat(api.post("/api/v1/groups/" + groupId + "/members", bob.token(), Map.of("username", bob.username()))
                .status()).isEqualTo(201);
        browser.signIn(bob.username(), bob.password());
        browser.open("/groups/" + groupId);
        browser.waitFor("#group-post-form");

        // The owner removes Bob while his page is open.
        assertThat(api.delete("/api/v1/groups/" + groupId + "/members/" + bob.username(), alice.token()).status())
                .isEqualTo(204);
        browser.type("#group-post-text", "Am I still here?");
        browser.click("#group-post-form button[type=submit]");
        browser.waitForText("#group-post-error", "Only members of the group may do this.");
        browser.waitForText("#group-role", "You are not a member.");
        assertThat(browser.find("#group-post-form").isDisplayed()).isFalse();
        assertThat(browser.text("#group-post-error")).doesNotContain("{");
        assertThat(api.get("/api/v1/groups/" + groupId + "/feed", alice.token()).json().size()).isZero();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void followsAndLeavesAfterConfirming(Browser browser) {
        TestUser alice = api.newUser("webleave");
        TestUser bob = api.newUser("webleave");
        TestUser carol = api.newUser("webleave");
        ApiResponse created = api.post("/api/v1/groups", alice.token(), Map.of("name", "Leavers", "open", true));
        String groupId = created.json().path("id").asString();
        String sourceId = created.json().path("source_id").asString();
        api.post("/api/v1/groups/" + groupId + "/members", bob.token(), Map.of("username", bob.username()));
        browser.signIn(bob.username(), bob.password());

        browser.open("/groups/" + groupId);
        browser.click("#group-leave");
        browser.waitForText("#group-actions .confirm", "Leave Leavers?");
        browser.click("#group-actions .confirm-no");
        browser.waitUntil("the confirmation to close", () -> !browser.exists("#group-actions .confirm"));
        assertThat(api.get("/api/v1/groups", bob.token()).json().size()).isEqualTo(1);

        browser.click("#group-leave");
        browser.click("#group-actions .confirm-yes");
        browser.waitForText("#group-role", "You are not a member.");
        browser.waitFor("#group-join");
        browser.waitUntil("Bob gone from the members", () -> !browser.text("#group-members").contains(bob.username()));
        assertThat(api.get("/api/v1/groups", bob.token()).json().size()).isZero();

        // Anyone may follow a group without joining it.
        browser.open("/");
        browser.click("#sign-out");
        browser.waitForText(".notice", "You are signed out.");
        browser.signIn(carol.username(), carol.password());
        browser.open("/groups/" + groupId);
        browser.waitForText("#group-actions .follow", "Follow");
        browser.click("#group-actions .follow");
        browser.waitForText("#group-actions .follow", "Unfollow");
        assertThat(api.get("/api/v1/subscriptions", carol.token()).json().get(0).path("source").path("id").asString())
                .isEqualTo(sourceId);
        browser.click("#group-actions .follow");
        browser.click("#group-actions .confirm-yes");
        browser.waitUntil("the button to say Follow", () -> browser.text("#group-actions .follow").equals("Follow"));
        assertThat(api.get("/api/v1/subscriptions", carol.token()).json().size()).isZero();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void membersArePagedWithTheNextLink(Browser browser) {
        TestUser alice = api.newUser("webmany");
        String groupId = api.newGroup(alice, "Crowd", true);
        for (int i = 0; i < 20; i++) {
            TestUser member = api.newUser("webmany");
            api.post("/api/v1/groups/" + groupId + "/members", member.token(), Map.of("username", member.username()));
        }
        browser.signIn(alice.username(), alice.password());

        browser.open("/groups/" + groupId);
        browser.waitUntil("the first page of members", () -> browser.all("#group-members .member").size() == 20);
        browser.click("#members-more");
        browser.waitUntil("all 21 members", () -> browser.all("#group-members .member").size() == 21);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void anUnknownGroupSaysSo(Browser browser) {
        TestUser alice = api.newUser("webnogroup");
        browser.signIn(alice.username(), alice.password());

        browser.open("/groups/999999999999");
        browser.waitForText("#group-missing", "Group 999999999999 was not found.");
        assertThat(browser.find("#group-found").isDisplayed()).isFalse();
    }

}
