package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The groups page: create a group (a hostile name stays text), list mine, open one by number. */
@BrowserTest
class GroupsBrowserTest {

    private static final String HOSTILE = "<img src=x onerror=\"window.__pwned=1\">";

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void createsAGroupWhoseHostileNameStaysText(Browser browser) {
        TestUser alice = api.newUser("webgroups");
        browser.signIn(alice.username(), alice.password());
        browser.open("/groups");
        browser.waitForText("#my-groups", "You don’t belong to any group yet.");

        browser.click("#group-form button[type=submit]");
        browser.waitForText("#group-error", "Give the group a name.");

        browser.type("#group-name", HOSTILE);
        browser.click("#group-form button[type=submit]");
        browser.waitForText("#group-created", "Created " + HOSTILE);
        browser.waitForText("#my-groups .group-link", HOSTILE);
        assertThat(browser.text("#group-count")).isEqualTo("(1)");
        assertThat(browser.all("main img")).isEmpty();
        assertThat(browser.script("return window.__pwned")).isNull();
        JsonNode mine = api.get("/api/v1/groups", alice.token()).json();
        assertThat(mine.size()).isEqualTo(1);
        assertThat(mine.get(0).path("name").asString()).isEqualTo(HOSTILE);

        browser.click("#my-groups .group-link");
        browser.waitForText("#group-name", HOSTILE);
        assertThat(browser.path()).isEqualTo("/groups/" + mine.get(0).path("id").asString());
        assertThat(browser.all("main img")).isEmpty();
        assertThat(browser.script("return window.__pwned")).isNull();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /** Invitations are answered on the groups page: accept joins, decline (and block) leaves no membership. */
    @Test
    void showsInvitationsToAcceptOrDecline(Browser browser) {
        TestUser alice = api.newUser("webinv");
        TestUser owner = api.newUser("webinv");
        String joined = api.post("/api/v1/groups", owner.token(), Map.of("name", HOSTILE)).json().path("id").asString();
        String declined = api.post("/api/v1/groups", owner.token(), Map.of("name", "Pushy")).json().path("id").asString();
        api.post("/api/v1/groups/" + joined + "/members", owner.token(), Map.of("username", alice.username()));
        api.post("/api/v1/groups/" + declined + "/members", owner.token(), Map.of("username", alice.username()));
        browser.signIn(alice.username(), alice.password());
        browser.open("/groups");

        browser.waitForText("#my-invitations", "Pushy");
        assertThat(browser.text("#invitation-count")).isEqualTo("(2)");
        assertThat(browser.text("#my-invitations")).contains(HOSTILE).contains("from " + owner.username());
        assertThat(browser.all("main img")).isEmpty();
        browser.click("#my-invitations li[data-id] .accept-invitation");
        browser.waitForText("#my-groups .group-link", HOSTILE);
        browser.waitForText("#invitation-count", "(1)");
        browser.click("#my-invitations .block-invitation");
        browser.waitUntil("the answered invitations are gone", () -> !browser.find("#invitations").isDisplayed());

        assertThat(api.get("/api/v1/groups", alice.token()).json().valueStream().map(g -> g.path("id").asString()))
                .containsExactly(joined);
        assertThat(api.post("/api/v1/groups/" + declined + "/members", owner.token(), Map.of("username", alice.username()))
                .json().path("reason").asString()).isEqualTo("invitations_refused");
        assertThat(browser.script("return window.__pwned")).isNull();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void opensAGroupByNumberAndRefusesBadOnes(Browser browser) {
        TestUser alice = api.newUser("webopen");
        TestUser bob = api.newUser("webopen");
        String groupId = api.post("/api/v1/groups", bob.token(), Map.of("name", "Bob's open group")).json().path("id").asString();
        browser.signIn(alice.username(), alice.password());
        browser.open("/groups");

        browser.type("#open-group-id", "twelve");
        browser.click("#open-group-form button[type=submit]");
        browser.waitForText("#open-group-error", "digits only");

        browser.type("#open-group-id", "999999999999");
        browser.click("#open-group-form button[type=submit]");
        browser.waitForText("#open-group-error", "Group 999999999999 was not found.");

        browser.type("#open-group-id", groupId);
        browser.click("#open-group-form button[type=submit]");
        browser.waitForText("#group-name", "Bob's open group");
        assertThat(browser.path()).isEqualTo("/groups/" + groupId);

        browser.open("/groups");
        browser.waitFor("#group-form");
        browser.resize(375, 800);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }
}
