package dev.tributary.api.bench;

import dev.tributary.pubsub.Account;
import dev.tributary.storage.Entity;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.bench.Bench;
import dev.tributary.pubsub.bench.TimelineSeed;
import dev.tributary.storage.EntityKind;
import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IdGenerator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The HTTP benchmark's data, written fast and mostly around the services: a pool of ~1 KB items
 * published through {@link Publisher} (fan-out off), accounts stored in bulk with one bcrypt hash
 * made once, one personal access token each inserted in bulk as {@code PersonalTokens} stores
 * them ({@code trb_} + secret, SHA-256 kept), inboxes filled to the window by multi-row INSERTs
 * (as {@code TimelineBenchmark} fills them, a fifth of the entries read), and every person's
 * unread counters built in Redis so the measured reads find them warm.
 */
final class HttpSeed {

    private static final String URL = "https://bench.tributary.test/http/";
    private static final int ACCOUNTS_PER_INSERT = 500;

    /** The seeded people: ids, and the secret of each one's read+write token, in the same order. */
    record People(long[] ids, List<String> tokens) {
    }

    private final ConfigurableApplicationContext context;
    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final IdGenerator ids;
    private final Random random = new Random(42);

    HttpSeed(ConfigurableApplicationContext context) {
        this.context = context;
        this.dataSource = context.getBean(DataSource.class);
        this.jdbc = new JdbcTemplate(dataSource);
        this.ids = context.getBean(IdGenerator.class);
    }

    /** Item pool, then people with tokens and full inboxes, then their unread counters; prints each step's time. */
    People seed(int users, int poolSize, int perInbox) {
        return seed(users, poolSize, perInbox, false);
    }

    /** As {@link #seed(int, int, int)}; {@code allUnread}: every entry unread (a first sync reads them all), not four in five. */
    People seed(int users, int poolSize, int perInbox, boolean allUnread) {
        long started = System.nanoTime();
        long[] pool = publishPool(poolSize);
        long[] people = insertAccounts(users);
        List<String> tokens = insertTokens(people);
        long accountsDone = System.nanoTime();
        long rows = fillInboxes(people, pool, Math.min(perInbox, pool.length));
        if (allUnread) {
            jdbc.update("UPDATE inbox SET is_read = FALSE"); // before the counters are built from the inbox
        }
        jdbc.execute("ANALYZE TABLE inbox");
        long inboxDone = System.nanoTime();
        warmUnreadCounters(people);
        long warmDone = System.nanoTime();
        System.out.println(Bench.format("set-up: %,d items, %,d people with a token each in %.1f s; %,d inbox rows in %.1f s; "
                + "unread counters built in %.1f s", pool.length, people.length, (accountsDone - started) / 1e9, rows,
                (inboxDone - accountsDone) / 1e9, (warmDone - inboxDone) / 1e9));
        return new People(people, tokens);
    }

    // ---------------------------------------------------------------- items

    /** The item pool, as the timeline benchmark makes it. */
    private long[] publishPool(int poolSize) {
        return TimelineSeed.publishPool(context.getBean(Sources.class), context.getBean(Publisher.class), jdbc, URL, "http-",
                poolSize, random);
    }

    // ---------------------------------------------------------------- people

    /** Accounts through the entity store in multi-row inserts; bcrypt once, since nobody logs in with the password. */
    private long[] insertAccounts(int users) {
        @SuppressWarnings("unchecked")
        EntityKind<Account> kind = context.getBean("accountKind", EntityKind.class);
        EntityStore store = context.getBean(EntityStore.class);
        String hash = context.getBean(PasswordEncoder.class).encode("bench-password");
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        long[] people = new long[users];
        for (int first = 0; first < users; first += ACCOUNTS_PER_INSERT) {
            List<Account> batch = new ArrayList<>(ACCOUNTS_PER_INSERT);
            for (int i = first; i < Math.min(users, first + ACCOUNTS_PER_INSERT); i++) {
                batch.add(new Account(Bench.format("bench_%06d", i), hash, null, secret(24), now));
            }
            List<Entity<Account>> stored = store.insertAll(kind, batch);
            for (int i = 0; i < stored.size(); i++) {
                people[first + i] = stored.get(i).id();
            }
        }
        return people;
    }

    /** One read+write token per person, stored as {@code PersonalTokens.create} stores it. */
    private List<String> insertTokens(long[] people) {
        List<String> tokens = new ArrayList<>(people.length);
        List<Object[]> rows = new ArrayList<>(people.length);
        Timestamp now = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
        for (long person : people) {
            String token = "trb_" + secret(32);
            tokens.add(token);
            rows.add(new Object[] {person, ids.next(), "bench", sha256(token), "read write", now});
        }
        jdbc.batchUpdate("""
                INSERT INTO personal_tokens (user_id, id, name, token_hash, scopes, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, rows);
        return tokens;
    }

    private String secret(int bytes) {
        byte[] secret = new byte[bytes];
        random.nextBytes(secret); // a benchmark's secrets need not be unpredictable, only distinct
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    // ---------------------------------------------------------------- inboxes and counters

    private long fillInboxes(long[] people, long[] pool, int perInbox) {
        return TimelineSeed.fillInboxes(dataSource, jdbc, people, pool, perInbox, random);
    }

    /** Reads every person's counts once, which builds their hash in Redis from the inbox. */
    private void warmUnreadCounters(long[] people) {
        HomeFeed unread = context.getBean(HomeFeed.class);
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            readers.add(Thread.ofPlatform().name("warm-" + t).start(() -> {
                try {
                    for (int i = next.getAndIncrement(); i < people.length; i = next.getAndIncrement()) {
                        unread.unread(people[i]);
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        Bench.join(readers, Duration.ofMinutes(10));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("building the unread counters failed", failures.getFirst());
        }
    }
}
