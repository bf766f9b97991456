package dev.tributary.api.greader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A real Google Reader client against the running app: Debian's newsboat (2.21 in Debian 12),
 * whose {@code feedhq} source signs in with {@code POST /accounts/ClientLogin} at
 * {@code feedhq-url + "/accounts/ClientLogin"} (a doubled slash, as the url ends in one), lists
 * {@code subscription/list}, reads each feed as Atom from {@code /reader/atom/<escaped stream
 * id>?n=20}, and marks an article read with {@code edit-tag} when it is opened (src/feedhqapi.cpp,
 * src/itemviewformaction.cpp of newsboat r2.21). {@code -x reload} runs it without a terminal;
 * opening an article needs its interface, driven in tmux. Its cache is SQLite, read with the
 * {@code sqlite3} tool. Without newsboat (or tmux, sqlite3) the test is skipped with a warning,
 * unless {@code TRIBUTARY_NEWSBOAT_TESTS=required}, as {@code .ci/run} sets.
 */
@ApiTest
class NewsboatTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    private static final Duration RUN_LIMIT = Duration.ofMinutes(2);

    @LocalServerPort int port;
    @TempDir Path dir;

    @BeforeAll
    static void newsboatInstalled() {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("newsboat", "tmux", "sqlite3")) {
            if (find(tool) == null) {
                missing.add(tool);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        String reason = "no " + String.join(", ", missing) + " on the PATH (apt-get install newsboat tmux sqlite3)";
        if ("required".equalsIgnoreCase(System.getenv("TRIBUTARY_NEWSBOAT_TESTS"))) {
            throw new AssertionError("TRIBUTARY_NEWSBOAT_TESTS=required but " + reason);
        }
        System.out.println("\n*** SKIPPED newsboat test: " + reason + " ***\n");
        Assumptions.abort(reason);
    }

    @Test
    void newsboatListsSubscriptionsAndArticlesAndSyncsReadMarksBothWays() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser alice = api.newUser("newsboat");
        Instant hourAgo = Instant.now().minus(1, ChronoUnit.HOURS);
        server.feed("/nb-alpha.xml", TestFeeds.numbered("Alpha", 3, hourAgo));
        server.feed("/nb-beta.xml", TestFeeds.numbered("Beta", 2, hourAgo));
        for (String feed : List.of("/nb-alpha.xml", "/nb-beta.xml")) {
            ApiResponse subscribed = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url(feed).toString()));
            assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        }
        Await.until("both feeds' entries unread", () -> unread(api, alice) == 5);

        Files.writeString(dir.resolve("config"), String.join("\n",
                "urls-source \"feedhq\"",
                // With the trailing slash newsboat's documentation shows: it then asks for //accounts/ClientLogin.
                "feedhq-url \"http://127.0.0.1:" + port + "/\"",
                "feedhq-login \"" + alice.username() + "\"",
                "feedhq-password \"" + alice.token() + "\"",
                // Its special feeds (starred, shared…) point at feedhq.org whatever feedhq-url says.
                "feedhq-show-special-feeds no",
                "") , StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("urls"), "");
        Files.createDirectories(dir.resolve("home"));

        reload();
        assertThat(sql("SELECT title FROM rss_feed ORDER BY title")).containsExactly("Alpha", "Beta");
        assertThat(sql("SELECT count(*) FROM rss_item")).containsExactly("5");
        assertThat(sql("SELECT count(*) FROM rss_item WHERE unread = 1")).containsExactly("5");
        assertThat(sql("SELECT DISTINCT substr(guid, 1, 32) FROM rss_item")).containsExactly("tag:google.com,2005:reader/item/");

        // A mark made through REST reaches newsboat on its next reload: one in the feed newsboat lists second,
        // so the first article of the first feed, opened below, is unread.
        ReaderClient reader = new ReaderClient(api);
        String first = reader.ok("/reader/api/0/subscription/list?output=json", reader.login(alice.username(), alice.token()))
                .json().path("subscriptions").get(0).path("title").asString();
        String oneGuid = sql("SELECT i.guid FROM rss_item i JOIN rss_feed f ON i.feedurl = f.rssurl WHERE f.title = '"
                + (first.equals("Alpha") ? "Beta" : "Alpha") + "' ORDER BY i.guid LIMIT 1").getFirst();
        long one = ItemIds.parse(oneGuid);
        assertThat(api.post("/api/v1/items/" + one + "/read", alice.token(), null).status()).isEqualTo(204);
        reload();
        assertThat(sql("SELECT guid FROM rss_item WHERE unread = 0")).containsExactly(oneGuid);

        // A mark made in newsboat (opening an article) reaches the REST API.
        openFirstArticleOfFirstFeed();
        List<String> readInNewsboat = sql("SELECT guid FROM rss_item WHERE unread = 0 AND guid <> '" + oneGuid + "'");
        assertThat(readInNewsboat).hasSize(1);
        long two = ItemIds.parse(readInNewsboat.getFirst());
        assertThat(unread(api, alice)).isEqualTo(3);
        assertThat(api.get("/api/v1/items/" + two, alice.token()).json().path("read").asBoolean()).isTrue();
        reload();
        assertThat(sql("SELECT count(*) FROM rss_item WHERE unread = 1")).containsExactly("3");
    }

    private static long unread(ApiClient api, TestUser user) {
        return api.get("/api/v1/unread", user.token()).json().path("total").asLong();
    }

    private void reload() throws IOException, InterruptedException {
        Process newsboat = process("newsboat", "-C", dir.resolve("config").toString(), "-c",
                dir.resolve("cache.db").toString(), "-u", dir.resolve("urls").toString(), "-x", "reload")
                .redirectOutput(dir.resolve("reload.log").toFile()).directory(dir.toFile()).start();
        assertThat(newsboat.waitFor(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)).as("newsboat -x reload ended").isTrue();
        assertThat(newsboat.exitValue()).as(Files.readString(dir.resolve("reload.log"))).isZero();
    }

    /**
     * newsboat's interface in a tmux of its own: open the first feed, then its first article
     * (which marks it read through edit-tag), then quit. Each key waits for the screen it acts on.
     */
    private void openFirstArticleOfFirstFeed() throws IOException, InterruptedException {
        String socket = dir.resolve("tmux.sock").toString();
        run("tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "nb", "-x", "160", "-y", "40",
                "newsboat -C " + dir.resolve("config") + " -c " + dir.resolve("cache.db") + " -u " + dir.resolve("urls"));
        try {
            screen(socket, "Your feeds");
            run("tmux", "-S", socket, "send-keys", "-t", "nb", "Enter");
            screen(socket, "Articles in feed");
            run("tmux", "-S", socket, "send-keys", "-t", "nb", "Enter");
            screen(socket, "Article '");
            run("tmux", "-S", socket, "send-keys", "-t", "nb", "q");
            screen(socket, "Articles in feed");
            run("tmux", "-S", socket, "send-keys", "-t", "nb", "q");
            screen(socket, "Your feeds");
            run("tmux", "-S", socket, "send-keys", "-t", "nb", "q");
            Await.until("newsboat quit", () -> exitCode("tmux", "-S", socket, "has-session", "-t", "nb") != 0);
        } finally {
            exitCode("tmux", "-S", socket, "kill-server");
        }
    }

    private void screen(String socket, String shows) {
        Await.until(() -> "newsboat showing '" + shows + "'", () -> capture(socket).contains(shows));
    }

    private String capture(String socket) {
        try {
            return output("tmux", "-S", socket, "capture-pane", "-p", "-t", "nb");
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private List<String> sql(String query) throws IOException, InterruptedException {
        String out = output("sqlite3", dir.resolve("cache.db").toString(), query);
        return out.isBlank() ? List.of() : Arrays.asList(out.strip().split("\n"));
    }

    private void run(String... command) throws IOException, InterruptedException {
        assertThat(exitCode(command)).as(String.join(" ", command)).isZero();
    }

    private int exitCode(String... command) {
        try {
            Process process = process(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertThat(process.waitFor(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
            return process.exitValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String output(String... command) throws IOException, InterruptedException {
        Process process = process(command).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
        return out;
    }

    /** A command with its own HOME (newsboat keeps state there) and a terminal type tmux and newsboat know. */
    private ProcessBuilder process(String... command) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("HOME", dir.resolve("home").toString());
        builder.environment().put("TERM", "xterm");
        builder.environment().remove("TMUX");
        return builder;
    }

    private static Path find(String tool) {
        for (String folder : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(folder, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
