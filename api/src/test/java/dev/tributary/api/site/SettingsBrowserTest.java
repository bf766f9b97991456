package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The settings page: account, private feed addresses, OPML, personal access tokens, authorised apps. */
@BrowserTest
class SettingsBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final String HOSTILE = "<img src=x onerror=\"window.__pwned=1\">";

    @LocalServerPort int port;
    @TempDir Path files;
    private ApiClient api;
    private TestUser user;

    @BeforeEach
    void someone() {
        api = new ApiClient(port);
        user = api.newUser("settings");
    }

    @Test
    void showsTheAccountAndAPrivateFeedUrlOnlyWhenItIsMade(Browser browser) throws Exception {
        String before = api.post("/api/v1/me/feed_token", user.token(), null).json().path("feed_token").asString();
        String beforeUrl = browser.base() + "/feeds/home.rss?token=" + before;
        openSettings(browser, user);
        assertThat(browser.text("#account-username")).isEqualTo(user.username());
        browser.waitUntil("the member-since date", () -> browser.exists("#account-since time"));
        assertThat(browser.find("#feed-urls").isDisplayed()).as("a made url is never shown again").isFalse();
        assertThat(browser.find("#feed-hidden").isDisplayed()).isTrue();
        assertThat(browser.find("#feed-rss").getAttribute("value")).isEmpty();

        browser.click("#rotate-feed");
        browser.waitForText("dialog.confirm", "stop working");
        browser.click("dialog.confirm .confirm-no");
        browser.waitUntil("the dialog closed", () -> !browser.exists("dialog.confirm"));
        assertThat(browser.find("#feed-urls").isDisplayed()).as("cancelled").isFalse();
        assertThat(fetch(beforeUrl).statusCode()).as("cancelled").isEqualTo(200);

        browser.click("#rotate-feed");
        browser.click("dialog.confirm .confirm-yes");
        browser.waitUntil("new feed addresses", () -> browser.find("#feed-urls").isDisplayed());
        String rss = browser.find("#feed-rss").getAttribute("value");
        String atom = browser.find("#feed-atom").getAttribute("value");
        assertThat(rss).startsWith(browser.base() + "/feeds/home.rss?token=");
        assertThat(atom).isEqualTo(rss.replace("/feeds/home.rss?", "/feeds/home.atom?"));
        HttpResponse<String> feed = fetch(rss);
        assertThat(feed.statusCode()).isEqualTo(200);
        assertThat(feed.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("rss"));
        assertThat(feed.body()).contains("<rss").contains(user.username() + "'s home on Tributary");
        assertThat(fetch(atom).body()).contains("<feed");
        assertThat(fetch(beforeUrl).statusCode()).as("the old address").isEqualTo(404);
        assertThat(api.get("/api/v1/me", user.token()).json().has("feed_token")).isFalse();

        browser.click("button.copy[data-copy='feed-rss']");
        browser.waitUntil("the copy to be reported", () -> !browser.text("#feed-copy-status").isEmpty());

        browser.open("/settings");
        browser.waitForText("#account-username", user.username());
        assertThat(browser.find("#feed-urls").isDisplayed()).as("shown once").isFalse();
        assertThat(browser.find("#feed-rss").getAttribute("value")).isEmpty();
        assertThat(fetch(rss).statusCode()).as("still working, though not shown").isEqualTo(200);

        browser.resize(375, 800);
        browser.open("/settings");
        browser.waitForText("#account-username", user.username());
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void importsAnOpmlFileAndExportsOne(Browser browser) throws Exception {
        FEEDS.feed("/settings/one.xml", TestFeeds.numbered("One", 2, Instant.now()));
        FEEDS.feed("/settings/two.xml", TestFeeds.numbered("Two", 2, Instant.now()));
        String one = FEEDS.url("/settings/one.xml").toString();
        String two = FEEDS.url("/settings/two.xml").toString();
        Path opml = write("feeds.opml", opml("""
                <outline type="rss" text="One" xmlUrl="%s"/>
                <outline text="Folder"><outline type="rss" text="Two" xmlUrl="%s"/></outline>
                <outline type="rss" text="One again" xmlUrl="%s"/>
                <outline type="rss" text="Bad" xmlUrl="javascript:alert(1)"/>
                """.formatted(one, two, one)));
        openSettings(browser, user);

        browser.find("#opml-file").sendKeys(opml.toAbsolutePath().toString());
        browser.click("#opml-form button[type=submit]");

        WebElement result = browser.waitFor("#opml-result");
        browser.waitForText("#opml-result", "Subscribed to 2 feeds.");
        assertThat(result.getText()).contains("1 feed you already follow was left as it was.")
                .contains("1 feed could not be added").contains("javascript:alert(1)");
        assertThat(browser.all("#opml-result .opml-errors li")).hasSize(1);
        assertThat(api.get("/api/v1/subscriptions", user.token()).json().valueStream()
                .map(s -> s.path("source").path("url").asString())).containsExactlyInAnyOrder(one, two);

        WebElement export = browser.find("#opml-export");
        assertThat(export.getAttribute("download")).isEqualTo("subscriptions.opml");
        @SuppressWarnings("unchecked")
        List<Object> exported = (List<Object>) browser.script("""
                const response = await fetch(arguments[0]);
                return [response.status, response.headers.get('Content-Type'), await response.text()];""",
                export.getAttribute("href"));
        assertThat(exported.get(0)).isEqualTo(200L);
        assertThat((String) exported.get(1)).startsWith("text/x-opml");
        assertThat((String) exported.get(2)).contains("<opml").contains(one).contains(two);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void badOpmlFilesAreRefusedReadably(Browser browser) throws Exception {
        openSettings(browser, user);

        browser.click("#opml-form button[type=submit]");
        browser.waitForText("#opml-error", "Choose an OPML file");

        browser.find("#opml-file").sendKeys(write("broken.opml", "this is not <xml").toAbsolutePath().toString());
        browser.click("#opml-form button[type=submit]");
        browser.waitUntil("a readable error", () -> browser.find("#opml-error").isDisplayed()
                && !browser.text("#opml-error").contains("Choose"));
        String refusal = browser.text("#opml-error");
        assertThat(refusal).isNotBlank().doesNotContain("{").doesNotContain("\"status\"");
        assertThat(browser.find("#opml-result").isDisplayed()).isFalse();

        Path huge = write("huge.opml", opml("<outline text=\"" + "x".repeat(2 * 1024 * 1024) + "\"/>"));
        browser.find("#opml-file").sendKeys(huge.toAbsolutePath().toString());
        browser.click("#opml-form button[type=submit]");
        browser.waitForText("#opml-error", "files up to 2 MB can be imported");
        assertThat(api.get("/api/v1/subscriptions", user.token()).json().size()).isZero();
    }

    @Test
    void createsAPersonalAccessTokenShownOnceThenRevokesIt(Browser browser) {
        // A password btoa() can't take as it is: the page must send it as UTF-8.
        String username = ApiClient.uniqueUsername("tokens");
        String password = "pässwörd ✓ 日本語 ok";
        assertThat(api.post("/api/v1/accounts", null, Map.of("username", username, "password", password)).status())
                .isEqualTo(201);
        TestUser unicode = new TestUser(null, username, password, null);
        openSettings(browser, unicode);
        browser.waitUntil("the token list loaded", () -> browser.find("#no-tokens").isDisplayed());

        browser.click("#token-form button[type=submit]");
        browser.waitForText("#token-error", "Give the token a name");

        browser.type("#token-name", "cli " + HOSTILE);
        // Read, write and Fever are ticked already: the token a person makes by default works in every reader app.
        assertThat(browser.find("#token-form input[value=write]").isSelected()).isTrue();
        assertThat(browser.find("#token-fever").isSelected()).isTrue();
        browser.type("#token-password", "not my password");
        browser.click("#token-form button[type=submit]");
        browser.waitForText("#token-error", "That password is wrong");
        assertThat(browser.find("#new-token").isDisplayed()).isFalse();
        assertThat(browser.path()).as("still here, not sent to sign in").isEqualTo("/settings");

        browser.type("#token-password", password);
        browser.click("#token-form button[type=submit]");
        browser.waitFor("#new-token");
        assertThat(browser.text("#new-token")).contains("won’t be shown again");
        String secret = browser.find("#new-token-value").getAttribute("value");
        assertThat(secret).isNotBlank();
        ApiResponse asToken = api.get("/api/v1/me", secret);
        assertThat(asToken.status()).isEqualTo(200);
        assertThat(asToken.json().path("username").asString()).isEqualTo(username);
        assertThat(api.post("/api/v1/posts", secret, Map.of("text", "from my script")).status()).as("write scope").isEqualTo(201);
        WebElement listed = browser.waitForText("#token-list .token", "cli");
        assertThat(listed.findElement(org.openqa.selenium.By.cssSelector(".token-name")).getText()).isEqualTo("cli " + HOSTILE);
        assertThat(listed.getText()).contains("read + write");
        assertThat(browser.all("#token-list img")).isEmpty();
        assertThat(browser.script("return window.__pwned === undefined")).isEqualTo(true);
        assertThat(browser.find("#token-password").getAttribute("value")).as("password not kept").isEmpty();

        browser.click("#new-token-done");
        assertThat(browser.find("#new-token").isDisplayed()).isFalse();
        browser.open("/settings");
        browser.waitForText("#token-list .token", "cli");
        assertThat((String) browser.script("return document.documentElement.outerHTML")).as("shown once").doesNotContain(secret);

        browser.click("#token-list .token .revoke");
        browser.waitForText("dialog.confirm", "Revoke the token");
        browser.click("dialog.confirm .confirm-yes");
        browser.waitUntil("the token gone from the list", () -> browser.all("#token-list .token").isEmpty());
        assertThat(browser.find("#no-tokens").isDisplayed()).isTrue();
        assertThat(api.get("/api/v1/me", secret).status()).isEqualTo(401);
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void showsHowToConnectReaderAppsAndCreatesAFeverToken(Browser browser) throws Exception {
        openSettings(browser, user);
        assertThat(browser.text("#reader-server")).isEqualTo(browser.base());
        assertThat(browser.text("#fever-server")).isEqualTo(browser.base() + "/fever/");
        assertThat(browser.all(".reader-username")).hasSize(2)
                .allSatisfy(code -> assertThat(code.getText()).isEqualTo(user.username()));

        browser.type("#token-name", "Reeder");
        browser.type("#token-password", user.password());
        browser.click("#token-form button[type=submit]");
        browser.waitFor("#new-token");
        String secret = browser.find("#new-token-value").getAttribute("value");
        WebElement listed = browser.waitForText("#token-list .token", "Reeder");
        assertThat(listed.getText()).contains("Fever");
        assertThat(api.get("/api/v1/tokens", user.token()).json().findValues("fever").stream().map(f -> f.asBoolean()))
                .containsExactlyInAnyOrder(false, true);

        String key = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                .digest((user.username() + ":" + secret).getBytes(StandardCharsets.UTF_8)));
        ApiResponse fever = api.send(api.builder("/fever/?api", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + key)));
        assertThat(fever.json().path("auth").asInt()).as("the Fever app signs in with it").isEqualTo(1);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void changesThePasswordAndStaysSignedIn(Browser browser) {
        openSettings(browser, user);
        browser.type("#current-password", "not my password");
        browser.type("#new-password", "short");
        browser.click("#password-form button[type=submit]");
        browser.waitForText("#password-error", "8 to 72 characters");

        browser.type("#new-password", "a brand new passphrase");
        browser.click("#password-form button[type=submit]");
        browser.waitForText("#password-error", "current password is wrong");
        assertThat(basicToken(user.password()).status()).as("nothing changed yet").isEqualTo(201);

        browser.type("#current-password", user.password());
        browser.click("#password-form button[type=submit]");
        browser.waitUntil("the form cleared after the change", () -> browser.find("#current-password").getAttribute("value").isEmpty());
        assertThat(basicToken(user.password()).status()).as("the old password").isEqualTo(401);
        assertThat(basicToken("a brand new passphrase").status()).as("the new password").isEqualTo(201);
        browser.open("/settings");
        browser.waitForText("#account-username", user.username());
        assertThat(browser.path()).as("this session survives the change").isEqualTo("/settings");
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    private ApiResponse basicToken(String password) {
        return api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), password))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"check\",\"scopes\":[\"read\"]}")));
    }

    @Test
    void anAuthorisedAppIsListedAndRevoked(Browser browser) {
        OAuthFlow oauth = new OAuthFlow(port);
        OAuthFlow.Tokens tokens = oauth.tokensFor(user, "read");
        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(200);
        openSettings(browser, user);

        WebElement app = browser.waitForText("#app-list .app", "Test app client_secret_basic");
        assertThat(app.getText()).contains("read").doesNotContain("write");
        assertThat(browser.find("#no-apps").isDisplayed()).isFalse();

        browser.click("#app-list .app .revoke");
        browser.waitForText("dialog.confirm", "Test app client_secret_basic");
        browser.click("dialog.confirm .confirm-yes");
        browser.waitUntil("the app gone from the list", () -> browser.all("#app-list .app").isEmpty());
        assertThat(browser.find("#no-apps").isDisplayed()).isTrue();
        assertThat(api.get("/api/v1/authorizations", user.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).as("its token stops working").isEqualTo(401);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void signsOutEverywhereAfterAConfirmAndLandsOnTheSignInPage(Browser browser) {
        openSettings(browser, user);

        browser.click("#sign-out-everywhere");
        browser.waitForText("dialog.confirm", "Sign out everywhere?");
        browser.click("dialog.confirm .confirm-no");
        browser.waitUntil("the dialog closed", () -> !browser.exists("dialog.confirm"));
        assertThat(api.get("/api/v1/me", user.token()).status()).as("cancelled: nothing ended").isEqualTo(200);

        browser.click("#sign-out-everywhere");
        browser.click("dialog.confirm .confirm-yes");
        browser.waitUntil("on the sign-in page", () -> browser.path().equals("/login"));
        assertThat(api.get("/api/v1/me", user.token()).status()).as("the personal token").isEqualTo(401);
        browser.open("/settings");
        browser.waitUntil("signed out here too", () -> browser.path().equals("/login"));
    }

    private static void openSettings(Browser browser, TestUser user) {
        browser.signIn(user.username(), user.password());
        browser.open("/settings");
        browser.waitForText("#account-username", user.username());
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(files.resolve(name), content, StandardCharsets.UTF_8);
    }

    private static String opml(String outlines) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0"><head><title>Mine</title></head><body>
                %s
                </body></opml>
                """.formatted(outlines);
    }

    private static HttpResponse<String> fetch(String url) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
    }
}
