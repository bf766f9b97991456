package dev.tributary.api.e2e;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Fault drill (issue 17): the fan-out node is killed with SIGKILL half-way through delivering one
 * item to 20,000 followers, started again on the same MariaDB and Redis, and must finish with the
 * item in every inbox exactly once and every unread count exact; and the same node killed in the
 * middle of an OPML import leaves whole subscriptions that importing again completes. Not part of {@code ./mvnw test}:
 * two boots of a second JVM take minutes on a small machine. Run it on its own:
 * {@code ./mvnw -B -o test -pl api -am -Dtest=FanoutCrashDrill -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>This JVM holds the embedded servers and publishes (roles {@code api}, no fan-out workers);
 * the node under test is a separate JVM on the same class path with roles {@code api,fanout}.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.roles=api", "tributary.fanout.workers=0"})
class FanoutCrashDrill {

    private static final int FOLLOWERS = 20_000;
    /** Synthetic followers' ids: far above any id the generator issues in a test. */
    private static final long FIRST_FOLLOWER = 1L << 60;
    private static final Duration BOOT = AppNode.BOOT;
    private static final int SIGKILL_EXIT = 128 + 9;

    @LocalServerPort int port;
    @Autowired Environment env;
    @Autowired JdbcClient jdbc;
    @Autowired DataSource dataSource;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired HomeFeed home;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopWhatWeStarted() throws InterruptedException {
        AppNode.stopAll(started);
    }

    @Test
    void aFanoutKilledMidwayDeliversEveryRowOnceAndCountsExactly() throws Exception {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        long feed = deliveries.feed();
        List<TestUser> sampled = IntStream.range(0, 5).mapToObj(i -> api.newUser("crash")).toList();
        sampled.forEach(user -> deliveries.follow(user, feed));
        insertFollowers(feed);
        long audience = FOLLOWERS + sampled.size();

        AppNode node = startNode("first");
        long item = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
        Await.until("the fan-out is under way, not done", BOOT, () -> {
            long rows = delivered(item);
            return rows > 0 && rows < audience;
        });
        node.process().destroyForcibly();
        assertThat(node.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(node.process().exitValue()).as("killed by SIGKILL").isEqualTo(SIGKILL_EXIT);
        long atKill = delivered(item);
        assertThat(atKill).as("killed mid-way").isLessThan(audience);

        AppNode again = startNode("restarted");
        Await.until("every follower has the item", BOOT,
                () -> delivered(item) == audience);

        assertThat(jdbc.sql("SELECT COUNT(DISTINCT user_id) FROM inbox WHERE item_id = ?").param(item).query(Long.class).single())
                .as("exactly once each").isEqualTo(audience);
        Map<Long, Long> unreadRows = jdbc.sql("SELECT user_id, COUNT(*) FROM inbox WHERE user_id >= ? AND is_read = FALSE GROUP BY user_id")
                .param(FIRST_FOLLOWER).query((rs, n) -> Map.entry(rs.getLong(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(unreadRows).hasSize(FOLLOWERS);
        List<Long> wrong = unreadRows.entrySet().stream()
                .filter(row -> home.unread(row.getKey()).total() != row.getValue()).map(Map.Entry::getKey).toList();
        assertThat(wrong).as("followers whose Redis counter differs from their inbox").isEmpty();
        ApiClient restarted = new ApiClient(again.port());
        for (TestUser user : sampled) {
            long rows = jdbc.sql("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE").param(user.numericId())
                    .query(Long.class).single();
            assertThat(restarted.get("/api/v1/unread", user.token()).json().path("total").asLong())
                    .as("GET /api/v1/unread of %s", user.username()).isEqualTo(rows);
        }
    }

    @Test
    void anOpmlImportKilledMidwayLeavesWholeSubscriptionsAndCompletesWhenRunAgain() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser reader = api.newUser("opmlcrash");
        int outlines = 3000;
        List<String> urls = IntStream.range(0, outlines).mapToObj(i -> "http://127.0.0.1:9/" + reader.username() + "/" + i + ".xml").toList();
        // Every third feed is known with three items: subscribing to it backfills them, counted unread.
        int known = 0;
        for (int i = 0; i < outlines; i += 3) {
            long feed = sources.feed(urls.get(i)).id();
            publisher.publish(feed, List.of(entry(MediaType.TEXT), entry(MediaType.TEXT), entry(MediaType.TEXT)));
            known++;
        }
        String opml = urls.stream().map(url -> "<outline type=\"rss\" text=\"f\" xmlUrl=\"" + url + "\"/>")
                .collect(Collectors.joining("", "<opml version=\"2.0\"><head/><body><outline text=\"Crash\">", "</outline></body></opml>"));

        AppNode node = startNode("import");
        ApiClient first = new ApiClient(node.port());
        Thread.ofVirtual().start(() -> {
            try {
                first.send(first.builder("/api/v1/subscriptions/import", reader.token()).timeout(BOOT)
                        .header("Content-Type", "text/x-opml").POST(HttpRequest.BodyPublishers.ofString(opml)));
            } catch (RuntimeException expected) {
                // the node is killed under it
            }
        });
        // The import subscribes in one transaction: only a dirty read sees it half written.
        Await.until("the import's transaction is under way, not committed", BOOT, () -> {
            return uncommittedSubscriptions(reader.numericId()) > 0 && subscriptions.count(reader.numericId()) == 0;
        });
        node.process().destroyForcibly();
        assertThat(node.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(node.process().exitValue()).as("killed by SIGKILL").isEqualTo(SIGKILL_EXIT);
        long atKill = subscriptions.count(reader.numericId());
        // It may have committed between the look and the kill; either way it is whole.
        assertThat(atKill).as("a killed transaction leaves none or all").isIn(0L, (long) outlines);

        AppNode again = startNode("import-restarted");
        ApiClient restarted = new ApiClient(again.port());
        assertWhole(reader, restarted);
        // Thousands of subscriptions in one request: longer than the client's usual 30 s on a busy machine.
        var rerun = restarted.send(restarted.builder("/api/v1/subscriptions/import", reader.token()).timeout(BOOT)
                .header("Content-Type", "text/x-opml").POST(HttpRequest.BodyPublishers.ofString(opml)));

        assertThat(rerun.status()).as(rerun.toString()).isEqualTo(200);
        assertThat(rerun.json().path("errors").size()).isZero();
        assertThat(subscriptions.count(reader.numericId())).as("at kill %s, rerun %s", atKill, rerun.body()).isEqualTo(outlines);
        assertThat(rerun.json().path("imported").asLong() + rerun.json().path("skipped").asLong()).as(rerun.body()).isEqualTo(outlines);
        assertThat(rerun.json().path("skipped").asLong()).as("what the killed import committed").isEqualTo(atKill);
        assertThat(subscriptions.count(reader.numericId())).isEqualTo(outlines);
        assertWhole(reader, restarted);
        assertThat(restarted.get("/api/v1/unread", reader.token()).json().path("total").asLong()).isEqualTo(3L * known);
    }

    private long uncommittedSubscriptions(long user) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            try (PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM subscriptions WHERE user_id = ?")) {
                count.setLong(1, user);
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        }
    }

    /**
     * Each subscription whole: in both tables or neither, its backfill with it, and the unread
     * count and the quota's count what MySQL holds.
     */
    private void assertWhole(TestUser reader, ApiClient api) {
        long user = reader.numericId();
        List<Long> subscribed = jdbc.sql("SELECT source_id FROM subscriptions WHERE user_id = ? ORDER BY source_id").param(user)
                .query(Long.class).list();
        List<Long> following = jdbc.sql("SELECT source_id FROM subscribers WHERE user_id = ? ORDER BY source_id").param(user)
                .query(Long.class).list();
        assertThat(following).as("subscribers matches subscriptions").isEqualTo(subscribed);
        List<Long> inboxSources = jdbc.sql("SELECT DISTINCT source_id FROM inbox WHERE user_id = ?").param(user).query(Long.class).list();
        assertThat(subscribed).as("no backfill without its subscription").containsAll(inboxSources);
        long unreadRows = jdbc.sql("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE").param(user).query(Long.class).single();
        assertThat(api.get("/api/v1/unread", reader.token()).json().path("total").asLong()).isEqualTo(unreadRows);
        assertThat(subscriptions.count(user)).isEqualTo(subscribed.size());
    }

    /** 20,000 followers of the feed, written straight into the table fan-out pages through. */
    private void insertFollowers(long feed) {
        for (int from = 0; from < FOLLOWERS; from += 1000) {
            String values = IntStream.range(from, from + 1000)
                    .mapToObj(i -> "(" + feed + "," + (FIRST_FOLLOWER + i) + "," + MediaType.ALL + ")")
                    .collect(Collectors.joining(","));
            jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES " + values).update();
        }
    }

    private long delivered(long item) {
        return jdbc.sql("SELECT COUNT(*) FROM inbox WHERE item_id = ?").param(item).query(Long.class).single();
    }

    private AppNode startNode(String name) throws IOException {
        return AppNode.start(env, name, started,
                "--tributary.roles=api,fanout", "--tributary.crawler.allow-private=127.0.0.0/8",
                // An import registers its new feeds unfetched: the drill needs no feed server.
                "--tributary.api.opml.check-budget=0s",
                // Small batches and a short lease: many commits to kill between, a quick take-over.
                "--tributary.fanout.batch-size=200", "--tributary.fanout.lease-ttl=5s", "--tributary.fanout.workers=1");
    }
}
