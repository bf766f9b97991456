package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import dev.tributary.crawler.schedule.FetchRecord;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Issue 52, break 5: one person imported 4,000 tar-pit urls on a host, and another person's
 * 1-minute feed on that host went hours without a fetch. Here the importer's feeds are recorded
 * as the crawler records tar pits (timed out), through the real claim and record path, and left
 * due long before the other person's healthy feed: the healthy feed is among the very next claims,
 * in its reader's own lane of the host's queue, and a tar-pit feed someone else also reads is
 * never put behind.
 */
@WithEmbeddedCrawler
class SharedHostFairnessTest {

    private static final int PILE = 4_000;
    /** Short, so that whatever these claims take is due again for whoever claims next. */
    private static final Duration LEASE = Duration.ofMillis(1);

    @Autowired FeedResolver resolver;
    @Autowired CrawlStates states;
    @Autowired Subscriptions subscriptions;
    @Autowired Sources sources;
    @Autowired JdbcClient jdbc;

    private final long importer = ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE / 2);
    private final long reader = importer + 1;
    private final long alsoReads = importer + 2;

    @Test
    void anotherPersonsHealthyFeedOnTheHostIsAmongTheNextClaims() {
        String host = "https://pit-" + UUID.randomUUID() + ".example/";
        try {
            pileAndHealthyFeed(host);
        } finally {
            putAway(host);
        }
    }

    private void pileAndHealthyFeed(String host) {
        List<Long> pile = register(host, PILE);
        long sharedPit = pile.getFirst();
        long healthy = register(host, 1).getFirst();
        follow(importer, pile);
        follow(alsoReads, List.of(sharedPit));
        follow(reader, List.of(healthy));

        // Every feed of the pile is fetched once and times out, as a tar pit does.
        due(pile, "2001-01-01");
        // A lease longer than this claim of 4,000 takes on a busy machine; recording each outcome ends it.
        List<CrawlState> claimed = states.claimDue("pile", PILE + 100, Duration.ofMinutes(10)).stream()
                .filter(state -> pile.contains(state.sourceId())).toList();
        assertThat(claimed).hasSize(PILE);
        for (CrawlState state : claimed) {
            assertThat(state.lane()).as("the importer's lane, or the shared one").isEqualTo(state.sourceId() == sharedPit
                    ? HostGate.SHARED : importer);
            assertThat(states.record(state, timedOut(state))).isTrue();
        }
        assertThat(penalised(pile)).as("the importer's own tar pits; not the one another person reads").isEqualTo(PILE - 1);

        // Now all of them are due long before the healthy feed, which was fetched before and is fine.
        due(pile, "2001-01-01");
        jdbc.sql("UPDATE crawl_state SET fetch_count = 5, next_fetch_at = '2001-01-02', status = 'ok' WHERE source_id = ?")
                .param(healthy).update();

        List<CrawlState> next = states.claimDue("next", 8, LEASE);

        List<Long> ids = next.stream().map(CrawlState::sourceId).toList();
        assertThat(ids).as("the other person's feed is not behind the importer's pile").contains(healthy);
        assertThat(ids).as("nor is the tar pit someone else reads").contains(sharedPit);
        assertThat(next.stream().filter(state -> state.sourceId() == healthy).findFirst().orElseThrow().lane())
                .as("fetched in its reader's share of the host").isEqualTo(reader);
    }

    @Test
    void aPenalisedFeedThatFindsAnotherReaderWaitsBehindNobody() {
        String host = "https://pit-" + UUID.randomUUID() + ".example/";
        try {
            twoPits(host);
        } finally {
            putAway(host);
        }
    }

    private void twoPits(String host) {
        List<Long> feeds = register(host, 2);
        follow(importer, feeds);
        due(feeds, "2001-01-01");
        for (CrawlState state : states.claimDue("pits", 1_000, LEASE)) {
            if (feeds.contains(state.sourceId())) {
                states.record(state, timedOut(state));
            }
        }
        assertThat(penalised(feeds)).isEqualTo(2);

        subscriptions.subscribe(alsoReads, feeds.getFirst(), List.of());

        assertThat(penalised(feeds)).as("a second reader lifts it; the other stays one person's").isEqualTo(1);
        CrawlState recovered = states.find(feeds.getLast()).orElseThrow();
        assertThat(recovered.status()).isEqualTo(CrawlStatusKind.ERROR);
    }

    private List<Long> register(String host, int count) {
        List<Sources.NewFeed> feeds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            feeds.add(new Sources.NewFeed(host + i + "-" + UUID.randomUUID() + ".xml", null, null));
        }
        return resolver.registerAll(feeds).values().stream().map(registration -> registration.source().id()).toList();
    }

    /** A person's subscriptions as the subscribers table holds them (the claim reads only that). */
    private void follow(long person, List<Long> feeds) {
        for (int from = 0; from < feeds.size(); from += 500) {
            List<Long> chunk = feeds.subList(from, Math.min(feeds.size(), from + 500));
            List<Object> args = new ArrayList<>();
            chunk.forEach(feed -> args.addAll(List.of(feed, person)));
            jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES "
                    + String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, 31)"))).params(args).update();
        }
    }

    /** Due since {@code day}, a second apart in the given order. */
    private void due(List<Long> feeds, String day) {
        jdbc.sql("SET @n = 0").update();
        jdbc.sql("UPDATE crawl_state SET next_fetch_at = '" + day + "' + INTERVAL (@n := @n + 1) SECOND "
                + "WHERE source_id IN (:ids) ORDER BY source_id").param("ids", feeds).update();
    }

    private long penalised(List<Long> feeds) {
        return jdbc.sql("SELECT COUNT(*) FROM crawl_state WHERE penalised AND source_id IN (:ids)").param("ids", feeds)
                .query(Long.class).single();
    }

    private static FetchRecord timedOut(CrawlState state) {
        return new FetchRecord(CrawlStatusKind.ERROR, URI.create(state.url().toString()), null, null, state.interval(),
                Duration.ofMinutes(2), state.consecutiveErrors() + 1, null, "timeout", "The server did not answer in time.");
    }

    /** Never due again, unread: other tests sharing this database do not meet these feeds. */
    private void putAway(String host) {
        jdbc.sql("DELETE FROM subscribers WHERE user_id IN (?, ?, ?)").params(importer, reader, alsoReads).update();
        jdbc.sql("UPDATE crawl_state SET next_fetch_at = '9999-12-31', penalised = FALSE WHERE url LIKE ?").param(host + "%").update();
    }
}
