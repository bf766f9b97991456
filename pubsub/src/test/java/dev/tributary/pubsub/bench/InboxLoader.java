package dev.tributary.pubsub.bench;

import dev.tributary.pubsub.MediaType;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
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

/** Fills benchmark inboxes fast with raw multi-row INSERTs: the set-up of the timeline and HTTP benchmarks. */
public final class InboxLoader {

    private InboxLoader() {
    }

    /**
     * Every person gets {@code perInbox} distinct items of the pool (published items, whose
     * sources are read from {@code item_sources}), in multi-row INSERTs of a few people each, in
     * primary-key order, on 2 threads. About a fifth of the entries are read. Returns the inbox's rows.
     */
    public static long fill(DataSource dataSource, JdbcTemplate jdbc, long[] people, long[] pool, int perInbox, Random random) {
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
