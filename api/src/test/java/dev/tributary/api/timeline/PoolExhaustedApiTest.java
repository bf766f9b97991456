package dev.tributary.api.timeline;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.zaxxer.hikari.HikariDataSource;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * MySQL's pool exhausted under a home-page poll: the kept page's fall-back (meant for Redis
 * trouble) must not read MySQL a second time, which would wait for the same pool twice; the
 * answer is the store's 503 with Retry-After, and the page is right again once the pool frees.
 */
@ApiTest
class PoolExhaustedApiTest {

    private static final String NEWEST = "/api/v1/timelines/home?limit=20";
    /** Hikari's least connection timeout: short enough that waiting for it is cheap. */
    private static final long SHORT_WAIT_MILLIS = 250;

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired DataSource dataSource;

    @Test
    void aPollWhileThePoolIsExhaustedWaitsForItOnceAndAnswersTheStoresBusyProblem() throws SQLException {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("pool");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT));
        // Her token is now known to this node and her page kept; a second item voids the page,
        // so the next poll reads MySQL.
        assertThat(api.get(NEWEST, alice.token()).status()).isEqualTo(200);
        long second = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();

        HikariDataSource pool = dataSource.unwrap(HikariDataSource.class);
        long timeout = pool.getConnectionTimeout();
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger pages = (Logger) LoggerFactory.getLogger(NewestPages.class);
        List<Connection> held = new ArrayList<>();
        ApiResponse busy;
        try {
            while (held.size() < pool.getMaximumPoolSize()) {
                held.add(pool.getConnection());
            }
            pool.getHikariConfigMXBean().setConnectionTimeout(SHORT_WAIT_MILLIS);
            log.start();
            pages.addAppender(log);
            busy = api.get(NEWEST, alice.token());
        } finally {
            pages.detachAppender(log);
            pool.getHikariConfigMXBean().setConnectionTimeout(timeout);
            for (Connection connection : held) {
                connection.close();
            }
        }

        assertThat(busy.status()).as(busy.toString()).isEqualTo(503);
        assertThat(busy.contentType()).startsWith("application/problem+json");
        assertThat(busy.header("Retry-After")).isEqualTo("5");
        assertThat(log.list).as("the fall-back read MySQL again").noneMatch(event -> event.getFormattedMessage().contains("bypassed"));
        ApiResponse after = api.get(NEWEST, alice.token());
        assertThat(after.status()).isEqualTo(200);
        assertThat(after.json().get(0).path("id").asString()).isEqualTo(String.valueOf(second));
    }
}
