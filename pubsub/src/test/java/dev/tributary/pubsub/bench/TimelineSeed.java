package dev.tributary.pubsub.bench;

import dev.tributary.pubsub.MediaType;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** The set-up of the timeline and HTTP benchmarks: an item pool, and inboxes filled fast with raw multi-row INSERTs. */
public final class TimelineSeed {

    /** Feeds the pool is spread over. */
    public static final int SOURCES = 50;

    private TimelineSeed() {
    }

    /**
     * A pool of ~1 KB items over {@code SOURCES} feeds ({@code urlPrefix} + n), published through
     * the service in calls of at most 500; the fan-out tasks are dropped (inboxes are filled by
     * {@link #fillInboxes}). Returns the items' ids.
     */
    public static long[] publishPool(Sources sources, Publisher publisher, JdbcTemplate jdbc, String urlPrefix,
            String guidPrefix, int poolSize, Random random) {
        return publishPool(sources, publisher, jdbc, urlPrefix, guidPrefix, poolSize, random, false);
    }

    /** As above; with {@code withContent}, each item also carries a WordPress-sized full content ({@link WordPressPosts}). */
    public static long[] publishPool(Sources sources, Publisher publisher, JdbcTemplate jdbc, String urlPrefix,
            String guidPrefix, int poolSize, Random random, boolean withContent) {
        long[] sourceIds = new long[SOURCES];
        for (int s = 0; s < SOURCES; s++) {
            sourceIds[s] = sources.feed(urlPrefix + s).id();
        }
        List<Long> pool = new ArrayList<>(poolSize);
        Instant base = Instant.now().minus(Duration.ofDays(7));
        int perSource = (poolSize + SOURCES - 1) / SOURCES;
        int made = 0;
        // Feeds take turns, a call of up to 500 entries each, so ids interleave across sources as in life.
        for (int from = 0; made < poolSize; from += Math.min(perSource, Publisher.MAX_ITEMS_PER_PUBLISH)) {
            for (int s = 0; s < SOURCES && made < poolSize; s++) {
                int count = Math.min(Math.min(perSource - from, Publisher.MAX_ITEMS_PER_PUBLISH), poolSize - made);
                if (count <= 0) {
                    continue;
                }
                List<NewItem> entries = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    NewItem entry = Bench.entry(random, guidPrefix + s + "-" + (from + i), base.plusSeconds(made + i));
                    if (withContent) {
                        entry = new NewItem(entry.guid(), entry.title(), entry.summary(), entry.url(), entry.author(), entry.mediaType(),
                                entry.media(), entry.tags(), entry.publishedAt(), WordPressPosts.post(random, guidPrefix + s + "-" + (from + i)));
                    }
                    entries.add(entry);
                }
                pool.addAll(publisher.publish(sourceIds[s], entries).created());
                made += count;
            }
        }
        jdbc.update("DELETE FROM fanout_tasks");
        return pool.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Every person gets {@code perInbox} distinct items of the pool (published items, whose
     * sources are read from {@code item_sources}), in multi-row INSERTs of a few people each, in
     * primary-key order, on 2 threads. About a fifth of the entries are read. Returns the inbox's rows.
     */
    public static long fillInboxes(DataSource dataSource, JdbcTemplate jdbc, long[] people, long[] pool, int perInbox, Random random) {
        Map<Long, Long> sourceOf = new HashMap<>();
        jdbc.query("SELECT source_id, item_id FROM item_sources", rs -> {
            sourceOf.put(rs.getLong(2), rs.getLong(1));
        });
        Arrays.sort(pool);
        long[] sourceIds = new long[pool.length];
        for (int i = 0; i < pool.length; i++) {
            sourceIds[i] = sourceOf.get(pool[i]);
        }
        int peoplePerStatement = Math.max(1, 4_000 / perInbox);
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> loaders = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            long seed = random.nextLong();
            loaders.add(Thread.ofPlatform().name("load-" + t).start(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                int[] order = new int[pool.length];
                for (int i = 0; i < order.length; i++) {
                    order[i] = i;
                }
                int[] picked = new int[perInbox];
                try (Connection connection = dataSource.getConnection();
                        Statement statement = connection.createStatement()) {
                    connection.setAutoCommit(true);
                    StringBuilder sql = new StringBuilder(peoplePerStatement * perInbox * 48);
                    for (int first = next.getAndAdd(peoplePerStatement); first < people.length;
                            first = next.getAndAdd(peoplePerStatement)) {
                        sql.setLength(0);
                        sql.append("INSERT INTO inbox (user_id, item_id, source_id, media, is_read) VALUES ");
                        boolean comma = false;
                        for (int p = first; p < Math.min(people.length, first + peoplePerStatement); p++) {
                            // A partial Fisher-Yates shuffle picks perInbox distinct pool indices.
                            for (int i = 0; i < perInbox; i++) {
                                int j = i + rnd.nextInt(order.length - i);
                                int swap = order[i];
                                order[i] = order[j];
                                order[j] = swap;
                                picked[i] = order[i];
                            }
                            Arrays.sort(picked); // the pool is sorted: rows in primary-key order
                            for (int index : picked) {
                                sql.append(comma ? ", (" : "(").append(people[p]).append(", ").append(pool[index])
                                        .append(", ").append(sourceIds[index]).append(", ").append(MediaType.TEXT.bit())
                                        .append(rnd.nextInt(5) == 0 ? ", TRUE)" : ", FALSE)");
                                comma = true;
                            }
                        }
                        statement.executeUpdate(sql.toString());
                    }
                } catch (SQLException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        Bench.join(loaders, Duration.ofMinutes(30));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("filling the inboxes failed", failures.getFirst());
        }
        return jdbc.queryForObject("SELECT COUNT(*) FROM inbox", Long.class);
    }
}
