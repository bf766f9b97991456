package dev.tributary.pubsub;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Unread counters in Redis, one hash per person ({@code t} total, {@code s<id>} per source,
 * {@code m<bit>} per media type), kept exact against MySQL, the truth.
 *
 * <p>The protocol. A writer moves the counters inside its transaction, after its rows are
 * written and locked, before it commits ({@link #apply}); each move stamps a fresh random
 * generation {@code _g}, and only a built hash ({@code _b}) is counted into. A rollback
 * invalidates what it moved. A rebuild (a read that finds no built hash) stamps a generation if
 * there is none, remembers it, counts the inbox with a locking read, which waits for every
 * writer still holding one of the person's rows, and writes the counts only if the generation
 * has not moved. So a delta is either in the count (its writer committed before the count,
 * having moved an unbuilt hash: nothing) or not (its writer locked rows after the count, and
 * moves the hash after the rebuild wrote it, or moved the generation and made it retry).
 * A hash lost to a restart, {@code FLUSHALL}, eviction or expiry is simply unbuilt again.
 */
@Component
class UnreadCounters {

    private static final String APPLY = """
            redis.call('HSET', KEYS[1], '_g', ARGV[1])
            if redis.call('HEXISTS', KEYS[1], '_b') == 1 then
              for i = 5, #ARGV, 2 do
                if redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1]) <= 0 then
                  redis.call('HDEL', KEYS[1], ARGV[i])
                end
              end
            end
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            if ARGV[4] ~= '' then
              redis.call('PUBLISH', ARGV[3], ARGV[4])
            end
            return 1
            """;

    /** Returns the generation to rebuild against, stamping one first so that a lost hash is noticed. */
    private static final String GENERATION = """
            local g = redis.call('HGET', KEYS[1], '_g')
            if not g then
              g = ARGV[1]
              redis.call('HSET', KEYS[1], '_g', g)
              redis.call('EXPIRE', KEYS[1], ARGV[2])
            end
            return g
            """;

    private static final String REBUILD = """
            if redis.call('HGET', KEYS[1], '_g') ~= ARGV[1] then
              return 0
            end
            if redis.call('HEXISTS', KEYS[1], '_b') == 1 then
              return 2
            end
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], '_b', '1', '_g', ARGV[1])
            for i = 3, #ARGV, 2 do
              redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
            end
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            return 1
            """;

    private static final String INVALIDATE = """
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], '_g', ARGV[1])
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            return 1
            """;

    private static final Script APPLY_SCRIPT = new Script(APPLY);
    private static final Script INVALIDATE_SCRIPT = new Script(INVALIDATE);
    private static final DefaultRedisScript<Long> REBUILD_SCRIPT = new DefaultRedisScript<>(REBUILD, Long.class);
    private static final DefaultRedisScript<String> GENERATION_SCRIPT = new DefaultRedisScript<>(GENERATION, String.class);

    /** A script's text and SHA-1, so that a pipeline can load it and call it without waiting for an answer. */
    private record Script(byte[] text, String sha) {
        Script(String text) {
            this(text.getBytes(StandardCharsets.UTF_8), new DefaultRedisScript<>(text, Long.class).getSha1());
        }
    }

    private final StringRedisTemplate redis;
    private final Inbox inbox;
    private final long ttlSeconds;
    private final PubsubMetrics metrics;

    UnreadCounters(StringRedisTemplate redis, Inbox inbox, TimelineSettings settings, PubsubMetrics metrics) {
        this.metrics = metrics;
        this.redis = redis;
        this.inbox = inbox;
        this.ttlSeconds = settings.counterTtl().toSeconds();
    }

    static String key(long userId) {
        return "tributary:unread:{" + userId + "}";
    }

    /**
     * Moves counters and announces events, one script call per person, pipelined. Call it inside
     * the writer's transaction, after its rows are written: if that transaction then rolls back,
     * the people's counters are invalidated. People with events but no delta get the announcement.
     */
    void apply(Collection<UnreadDelta> deltas, Map<Long, InboxEvent> events) {
        java.util.Set<Long> people = new java.util.LinkedHashSet<>(events.keySet());
        deltas.forEach(delta -> people.add(delta.userId()));
        if (TransactionSynchronizationManager.isSynchronizationActive() && !people.isEmpty()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    if (status != STATUS_COMMITTED) {
                        invalidate(people);
                    }
                }
            });
        }
        send(deltas, events);
    }

    private void send(Collection<UnreadDelta> deltas, Map<Long, InboxEvent> events) {
        Map<Long, Map<String, Long>> byUser = new LinkedHashMap<>();
        for (UnreadDelta delta : deltas) {
            Map<String, Long> fields = byUser.computeIfAbsent(delta.userId(), u -> new LinkedHashMap<>());
            fields.merge("t", (long) delta.change(), Long::sum);
            fields.merge("s" + delta.sourceId(), (long) delta.change(), Long::sum);
            fields.merge("m" + delta.media().bit(), (long) delta.change(), Long::sum);
        }
        events.keySet().forEach(user -> byUser.computeIfAbsent(user, u -> new LinkedHashMap<>()));
        if (byUser.isEmpty()) {
            return;
        }
        byte[] token = token();
        byte[] ttl = bytes(Long.toString(ttlSeconds));
        redis.executePipelined((RedisCallback<Object>) connection -> {
            // Loading is idempotent and cheap; it makes a restarted Redis (no scripts) a non-event.
            connection.scriptingCommands().scriptLoad(APPLY_SCRIPT.text());
            String sha = APPLY_SCRIPT.sha();
            byUser.forEach((user, fields) -> {
                InboxEvent event = events.get(user);
                List<byte[]> keysAndArgs = new ArrayList<>(5 + fields.size() * 2);
                keysAndArgs.add(bytes(key(user)));
                keysAndArgs.add(token);
                keysAndArgs.add(ttl);
                keysAndArgs.add(bytes(InboxEvent.channel(user)));
                keysAndArgs.add(bytes(event == null ? "" : event.encode()));
                fields.forEach((field, change) -> {
                    if (change != 0) {
                        keysAndArgs.add(bytes(field));
                        keysAndArgs.add(bytes(Long.toString(change)));
                    }
                });
                evalSha(connection, sha, keysAndArgs);
            });
            return null;
        });
    }

    /** Drops these people's counters (to be rebuilt on the next read), fencing any rebuild in flight. */
    void invalidate(Collection<Long> users) {
        if (users.isEmpty()) {
            return;
        }
        byte[] token = token();
        byte[] ttl = bytes(Long.toString(ttlSeconds));
        redis.executePipelined((RedisCallback<Object>) connection -> {
            connection.scriptingCommands().scriptLoad(INVALIDATE_SCRIPT.text());
            String sha = INVALIDATE_SCRIPT.sha();
            users.forEach(user -> evalSha(connection, sha, List.of(bytes(key(user)), token, ttl)));
            return null;
        });
    }

    /** The person's counts: from Redis when built, else rebuilt from the inbox (exactly). */
    Unread read(long userId) {
        for (int attempt = 0; attempt < 3; attempt++) {
            Map<Object, Object> hash = redis.opsForHash().entries(key(userId));
            if (hash.containsKey("_b")) {
                return parse(hash);
            }
            String generation = redis.execute(GENERATION_SCRIPT, List.of(key(userId)),
                    new String(token(), StandardCharsets.UTF_8), Long.toString(ttlSeconds));
            List<UnreadDelta> groups = inbox.unreadGroups(userId);
            metrics.counterRebuilt();
            Long outcome = redis.execute(REBUILD_SCRIPT, List.of(key(userId)), rebuildArgs(generation, groups));
            if (outcome == null || outcome == 1) {
                return summarise(groups);
            }
            // 2: a concurrent rebuild won, read it; 0: a delta landed while we counted, count again.
        }
        // Deltas keep landing while we count: answer from the inbox, uncached.
        return summarise(inbox.unreadGroups(userId));
    }

    private Object[] rebuildArgs(String generation, List<UnreadDelta> groups) {
        Map<String, Long> fields = new LinkedHashMap<>();
        for (UnreadDelta group : groups) {
            fields.merge("t", (long) group.change(), Long::sum);
            fields.merge("s" + group.sourceId(), (long) group.change(), Long::sum);
            fields.merge("m" + group.media().bit(), (long) group.change(), Long::sum);
        }
        List<String> args = new ArrayList<>(2 + fields.size() * 2);
        args.add(generation);
        args.add(Long.toString(ttlSeconds));
        fields.forEach((field, count) -> {
            args.add(field);
            args.add(Long.toString(count));
        });
        return args.toArray();
    }

    static Unread summarise(List<UnreadDelta> groups) {
        long total = 0;
        Map<Long, Long> bySource = new HashMap<>();
        Map<MediaType, Long> byMedia = new EnumMap<>(MediaType.class);
        for (UnreadDelta group : groups) {
            total += group.change();
            bySource.merge(group.sourceId(), (long) group.change(), Long::sum);
            byMedia.merge(group.media(), (long) group.change(), Long::sum);
        }
        return new Unread(total, bySource, byMedia);
    }

    private static Unread parse(Map<Object, Object> hash) {
        long total = 0;
        Map<Long, Long> bySource = new HashMap<>();
        Map<MediaType, Long> byMedia = new EnumMap<>(MediaType.class);
        for (Map.Entry<Object, Object> entry : hash.entrySet()) {
            String field = (String) entry.getKey();
            if (field.startsWith("_")) {
                continue;
            }
            long value = Long.parseLong((String) entry.getValue());
            if (value <= 0) {
                continue;
            }
            switch (field.charAt(0)) {
                case 't' -> total = value;
                case 's' -> bySource.put(Long.parseLong(field.substring(1)), value);
                case 'm' -> byMedia.put(MediaType.ofBit(Integer.parseInt(field.substring(1))), value);
                default -> { }
            }
        }
        return new Unread(total, bySource, byMedia);
    }

    private static void evalSha(RedisConnection connection, String sha, List<byte[]> keyAndArgs) {
        connection.scriptingCommands().evalSha(sha, ReturnType.INTEGER, 1, keyAndArgs.toArray(byte[][]::new));
    }

    private static byte[] token() {
        return bytes(Long.toHexString(ThreadLocalRandom.current().nextLong()));
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
