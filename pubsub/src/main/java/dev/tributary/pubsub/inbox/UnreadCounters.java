package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.UnreadTally;
import dev.tributary.storage.Transactions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.stereotype.Component;

/**
 * Unread counters in Redis, one hash per person ({@code s<id>:<bit>} per source and media type,
 * whose sums are the total, each source's and each media type's counts, and {@code x}, unread
 * entries lost to trimming), kept exact
 * against MySQL, the truth (the inbox, and {@code inbox_trimmed} for {@code x}). The same hash
 * carries until when a live stream of the person listens (the value of {@code _b}, the built mark,
 * once built; {@code _l} before): announcements go out only to such people, decided in the same
 * script call that moves the counters.
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

    /**
     * Moves the counters of many people in one call. ARGV[1] is a fresh generation; then, per group
     * of people whose moves are alike (usually every recipient of a batch): its number of people,
     * its number of fields, its number of announcements, the (field, change) pairs and the
     * announcements; KEYS are the people's hashes, group after group. A built hash is counted into;
     * its {@code _b} also says until when a live stream listens ({@code 1}: none), so the common
     * case, a built hash, costs one {@code HGET} besides its moves (a third of this script's Redis
     * time went to an {@code HMGET} of three marks). An unbuilt hash that exists (e.g. while a
     * rebuild is counting it) gets the new generation; an absent one is left absent; its {@code _l}
     * says until when a stream listens. Announcements go out only to a listening person: nobody else
     * hears them. A person's channel is named from the id that ends their key, as
     * {@link InboxEvent#channel} names it.
     */
    private static final String APPLY = """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local a = 2
            local k = 1
            while k <= #KEYS do
              local c = tonumber(ARGV[a])
              local n = tonumber(ARGV[a + 1])
              local m = tonumber(ARGV[a + 2])
              local f = a + 3
              local s = f + 2 * n
              a = s + m
              for j = k, k + c - 1 do
                local key = KEYS[j]
                local live = redis.call('HGET', key, '_b')
                if live then
                  for i = f, s - 1, 2 do
                    if redis.call('HINCRBY', key, ARGV[i], ARGV[i + 1]) <= 0 then
                      redis.call('HDEL', key, ARGV[i])
                    end
                  end
                else
                  local marks = redis.call('HMGET', key, '_g', '_l')
                  if n > 0 and (marks[1] or marks[2]) then
                    redis.call('HSET', key, '_g', ARGV[1])
                  end
                  live = marks[2]
                end
                if m > 0 and live and tonumber(live) > now then
                  local id = string.match(key, '(%d+)$')
                  local channel = $CHANNEL
                  for i = s, a - 1 do
                    redis.call('PUBLISH', channel, ARGV[i])
                  end
                end
              end
              k = k + c
            end
            return #KEYS
            """.replace("$CHANNEL", "'" + InboxEvent.channel("' .. id .. '") + "'");

    /**
     * Live streams of these people are open: each mark ({@code _b} of a built hash, else {@code _l})
     * is now + ARGV[1] ms (Redis's clock), and each hash lives at least that long, so the mark
     * outlives every renewal interval.
     */
    private static final String LISTENING = """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local ttl = tonumber(ARGV[1])
            local mark = string.format('%.0f', now + ttl)
            for k = 1, #KEYS do
              if redis.call('HEXISTS', KEYS[k], '_b') == 1 then
                redis.call('HSET', KEYS[k], '_b', mark)
                redis.call('HDEL', KEYS[k], '_l')
              else
                redis.call('HSET', KEYS[k], '_l', mark)
              end
              if redis.call('PTTL', KEYS[k]) < ttl then
                redis.call('PEXPIRE', KEYS[k], ttl)
              end
            end
            return #KEYS
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
            local live = redis.call('HGET', KEYS[1], '_l')
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], '_b', live or '1', '_g', ARGV[1])
            for i = 3, #ARGV, 2 do
              redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
            end
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            return 1
            """;

    /**
     * Drops the counts (and the built mark), keeping a live stream's mark as {@code _l}: the later of
     * {@code _l} and {@code _b}'s, as a hash written by an earlier layout may carry both.
     */
    private static final String INVALIDATE = """
            local marks = redis.call('HMGET', KEYS[1], '_l', '_b')
            local live = math.max(tonumber(marks[1]) or 0, tonumber(marks[2]) or 0)
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], '_g', ARGV[1])
            if live > 1 then
              redis.call('HSET', KEYS[1], '_l', string.format('%.0f', live))
            end
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            return 1
            """;

    private static final DefaultRedisScript<Long> APPLY_SCRIPT = new DefaultRedisScript<>(APPLY, Long.class);
    private static final DefaultRedisScript<Long> LISTENING_SCRIPT = new DefaultRedisScript<>(LISTENING, Long.class);
    private static final DefaultRedisScript<Long> INVALIDATE_SCRIPT = new DefaultRedisScript<>(INVALIDATE, Long.class);
    private static final DefaultRedisScript<Long> REBUILD_SCRIPT = new DefaultRedisScript<>(REBUILD, Long.class);
    private static final DefaultRedisScript<String> GENERATION_SCRIPT = new DefaultRedisScript<>(GENERATION, String.class);
    /** How many media types there are: {@code values()} copies its array at every call. */
    private static final int MEDIA_TYPES = MediaType.values().length;
    /** People per script call: keeps one call's arguments to a few hundred KB. */
    private static final int PEOPLE_PER_CALL = 1000;

    private final StringRedisTemplate redis;
    private final InboxTable inbox;
    private final long ttlSeconds;
    private final InboxMetrics metrics;
    private final boolean cluster;
    private final PageStamps stamps;
    private final Transactions tx;
    /** How long a read written straight on the connection may take: the client's own command timeout. */
    private final Duration timeout;

    UnreadCounters(StringRedisTemplate redis, InboxTable inbox, TimelineSettings settings, InboxMetrics metrics,
            PageStamps stamps, Transactions tx) {
        this.metrics = metrics;
        this.stamps = stamps;
        this.tx = tx;
        this.cluster = redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
        this.redis = redis;
        this.inbox = inbox;
        this.ttlSeconds = settings.counterTtl().toSeconds();
        this.timeout = redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce
                ? lettuce.getClientConfiguration().getCommandTimeout() : Duration.ofSeconds(60);
    }

    /** What one call does to a person's hash: the field changes, and the announcements on their channel. */
    private record Move(Map<String, Long> fields, List<String> messages) {}

    /** The person's hash; tagged with their bucket so one call can move a whole batch per slot (see {@link PersonSlots}). */
    static String key(long userId) {
        // v2: one field per source and media type; hashes of the first layout (a field per source, one per media type) are not read.
        return "tributary:unread:v2:" + PersonSlots.tag(userId) + ":" + userId;
    }

    /**
     * Moves counters and announces {@code event} (may be null) to {@code notify}, in one script
     * call per thousand people. Call it inside the writer's transaction, after its rows are
     * written: if that transaction then rolls back, the people's counters are invalidated.
     */
    void apply(Collection<UnreadDelta> deltas, InboxEvent event, Collection<Long> notify) {
        apply(deltas, Map.of(), event, notify);
    }

    /**
     * As {@link #apply(Collection, InboxEvent, Collection)}, also adding {@code trimmed} (per person)
     * to the count of unread entries lost to trimming, which the caller has added to
     * {@code inbox_trimmed} in the same transaction.
     */
    void apply(Collection<UnreadDelta> deltas, Map<Long, Long> trimmed, InboxEvent event, Collection<Long> notify) {
        Map<Long, List<String>> announcements = new LinkedHashMap<>();
        List<String> messages = event == null ? List.of() : List.of(event.encode());
        notify.forEach(user -> announcements.put(user, messages));
        apply(deltas, trimmed, announcements);
    }

    /**
     * As {@link #apply(Collection, InboxEvent, Collection)}, with each person's own announcements
     * (a batch that delivered several items, not each to everyone).
     */
    void apply(Collection<UnreadDelta> deltas, Map<Long, Long> trimmed, Map<Long, List<String>> announcements) {
        apply(deltas, trimmed, announcements, false);
    }

    /**
     * As {@link #apply(Collection, Map, Map)}; with {@code later} (a fan-out batch with more to
     * come) the people's page stamps move off the caller's thread after the commit
     * ({@link PageStamps#peopleDelivered}).
     */
    void apply(Collection<UnreadDelta> deltas, Map<Long, Long> trimmed, Map<Long, List<String>> announcements, boolean later) {
        Map<Long, Map<String, Long>> byUser = new LinkedHashMap<>();
        announcements.keySet().forEach(user -> byUser.put(user, new LinkedHashMap<>()));
        // A batch's thousand deltas name a handful of fields: each field's name is made once, so its
        // hash is computed once when the people's moves are grouped below.
        Map<Long, String[]> names = new HashMap<>();
        for (UnreadDelta delta : deltas) {
            String[] ofSource = names.computeIfAbsent(delta.sourceId(), source -> new String[MEDIA_TYPES]);
            int type = delta.media().ordinal();
            String field = ofSource[type] != null ? ofSource[type] : (ofSource[type] = field(delta));
            byUser.computeIfAbsent(delta.userId(), u -> new LinkedHashMap<>()).merge(field, (long) delta.change(), Long::sum);
        }
        trimmed.forEach((user, count) -> byUser.computeIfAbsent(user, u -> new LinkedHashMap<>()).merge("x", count, Long::sum));
        if (byUser.isEmpty()) {
            return;
        }
        List<Long> people = List.copyOf(byUser.keySet());
        tx.afterRollback(() -> {
            try {
                invalidate(people);
            } finally {
                stamps.peopleRolledBack(people);
            }
        });
        String generation = token();
        forEachCall(people, users -> {
            // People moved alike share one group of arguments: a batch's thousand recipients of one
            // item are one group, so a call carries a thousand keys and a handful of arguments.
            Map<Move, List<String>> groups = new LinkedHashMap<>();
            Move previous = null;
            List<String> previousKeys = null;
            for (long user : users) {
                Move move = new Move(byUser.get(user), announcements.getOrDefault(user, List.of()));
                // Neighbours usually move alike: comparing with the last one spares hashing every move.
                if (!move.equals(previous)) {
                    previous = move;
                    previousKeys = groups.computeIfAbsent(move, m -> new ArrayList<>());
                }
                previousKeys.add(key(user));
            }
            List<String> keys = new ArrayList<>(users.size());
            List<String> args = new ArrayList<>(1 + groups.size() * 8);
            args.add(generation);
            groups.forEach((move, groupKeys) -> {
                keys.addAll(groupKeys);
                args.add(Integer.toString(groupKeys.size()));
                args.add(Integer.toString(move.fields().size()));
                args.add(Integer.toString(move.messages().size()));
                move.fields().forEach((field, change) -> {
                    args.add(field);
                    args.add(Long.toString(change));
                });
                args.addAll(move.messages());
            });
            redis.execute(APPLY_SCRIPT, keys, args.toArray());
        });
        // Every inbox change passes here: cached pages of these people are void once it commits.
        if (later) {
            stamps.peopleDelivered(people);
        } else {
            stamps.peopleChanged(people);
        }
    }

    /**
     * Marks these people as listening to their channel for {@code ttl} (a live stream is open):
     * only they get announcements. One script call per thousand people. Call it before subscribing, and
     * again well within {@code ttl} while the stream stays open.
     */
    void listening(Collection<Long> users, Duration ttl) {
        String millis = Long.toString(ttl.toMillis());
        forEachCall(List.copyOf(users), chunk -> redis.execute(LISTENING_SCRIPT, chunk.stream().map(UnreadCounters::key).toList(),
                millis));
    }

    /** Drops these people's counters (to be rebuilt on the next read), fencing any rebuild in flight. */
    void invalidate(Collection<Long> users) {
        if (users.isEmpty()) {
            return;
        }
        String ttl = Long.toString(ttlSeconds);
        for (long user : users) {
            redis.execute(INVALIDATE_SCRIPT, List.of(key(user)), token(), ttl);
        }
    }

    /**
     * Splits people into script calls: up to a thousand per call on a single Redis; on Redis
     * Cluster, where a script may only touch the keys of one slot, one call per bucket of people
     * ({@link PersonSlots}), so a batch of a thousand is at most sixteen calls.
     */
    private void forEachCall(List<Long> users, java.util.function.Consumer<List<Long>> call) {
        PersonSlots.calls(users, cluster, PEOPLE_PER_CALL).forEach(call);
    }

    /** The person's counter hash as read, and the values of other keys read with it. */
    record Read(@Nullable Map<Object, Object> hash, List<@Nullable String> values) {
    }

    /**
     * The values of {@code keys}, then the person's counter hash, in one round trip: the commands
     * are written together on the shared connection (a Spring pipeline would open a connection of
     * its own) and run in that order, so a stamp among the keys is read before the hash (on Redis
     * Cluster a person's stamps share their hash's node); the keys' reads go to their nodes at once.
     */
    Read readWith(long userId, List<String> keys) {
        return readWith(Map.of(userId, keys), Set.of()).get(userId);
    }

    /**
     * {@link #readWith(long, List)} for many people at once, every command written before the first
     * answer is awaited; the hashes of {@code withoutHash} are not read ({@link Read#hash} null).
     */
    Map<Long, Read> readWith(Map<Long, List<String>> keysByPerson, Set<Long> withoutHash) {
        Map<Long, Read> reads = redis.execute((RedisCallback<Map<Long, Read>>) connection -> {
            @SuppressWarnings("unchecked")
            RedisClusterAsyncCommands<byte[], byte[]> async = (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
            Map<Long, RedisFuture<Map<byte[], byte[]>>> hashes = new HashMap<>();
            Map<Long, RedisFuture<List<KeyValue<byte[], byte[]>>>> values = new HashMap<>();
            keysByPerson.forEach((person, keys) -> {
                if (!keys.isEmpty()) {
                    values.put(person, async.mget(keys.stream().map(UnreadCounters::bytes).toArray(byte[][]::new)));
                }
                if (!withoutHash.contains(person)) {
                    hashes.put(person, async.hgetall(bytes(key(person))));
                }
            });
            Map<Long, Read> answers = new HashMap<>();
            keysByPerson.forEach((person, keys) -> {
                List<@Nullable String> found = new ArrayList<>(keys.size());
                if (!keys.isEmpty()) {
                    awaited(values.get(person)).forEach(value -> found.add(value.hasValue() ? text(value.getValue()) : null));
                }
                Map<Object, Object> fields = null;
                if (hashes.containsKey(person)) {
                    fields = new HashMap<>();
                    for (Map.Entry<byte[], byte[]> field : awaited(hashes.get(person)).entrySet()) {
                        fields.put(text(field.getKey()), text(field.getValue()));
                    }
                }
                answers.put(person, new Read(fields, found));
            });
            return answers;
        });
        if (reads == null) {
            throw new IllegalStateException("a read inside a pipeline or transaction");
        }
        return reads;
    }

    private <T> T awaited(RedisFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisSystemException("interrupted while reading counters", e);
        } catch (TimeoutException e) {
            // As Spring translates a command of its own that timed out: the store's 503, not a bug's 500.
            throw new QueryTimeoutException("Redis did not answer the counters' read within " + timeout, e);
        } catch (ExecutionException e) {
            RuntimeException translated = e.getCause() instanceof RuntimeException cause
                    ? new LettuceExceptionConverter().convert(cause) : null;
            throw translated != null ? translated : new RedisSystemException("could not read counters: " + e.getMessage(), e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The person's counts: from Redis when built, else rebuilt from the inbox (exactly). */
    Unread read(long userId) {
        return read(userId, null);
    }

    /** As {@link #read(long)}, starting from the hash as {@link #readWith} read it (when not null). */
    Unread read(long userId, @Nullable Map<Object, Object> alreadyRead) {
        for (int attempt = 0; attempt < 3; attempt++) {
            Map<Object, Object> hash = attempt == 0 && alreadyRead != null ? alreadyRead : redis.opsForHash().entries(key(userId));
            if (hash.containsKey("_b")) {
                return parse(hash);
            }
            String generation = redis.execute(GENERATION_SCRIPT, List.of(key(userId)), token(), Long.toString(ttlSeconds));
            List<UnreadDelta> groups = inbox.unreadGroups(userId);
            long trimmed = inbox.trimmedUnread(userId);
            metrics.counterRebuilt();
            Long outcome = redis.execute(REBUILD_SCRIPT, List.of(key(userId)), rebuildArgs(generation, groups, trimmed));
            if (outcome == null || outcome == 1) {
                return summarise(groups, trimmed);
            }
            // 2: a concurrent rebuild won, read it; 0: a delta landed while we counted, count again.
        }
        // Deltas keep landing while we count: answer from the inbox, uncached.
        return summarise(inbox.unreadGroups(userId), inbox.trimmedUnread(userId));
    }

    private Object[] rebuildArgs(String generation, List<UnreadDelta> groups, long trimmed) {
        Map<String, Long> fields = new LinkedHashMap<>();
        groups.forEach(group -> addTo(fields, group));
        if (trimmed > 0) {
            fields.put("x", trimmed);
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

    /**
     * Adds a delta to a person's hash fields: one per source and media type ({@code s<source>:<bit>}).
     * The total, a source's count and a media type's are sums of those fields, made when the hash is
     * read: one {@code HINCRBY} per person and delivery instead of one per kind of count.
     */
    private static void addTo(Map<String, Long> fields, UnreadDelta delta) {
        fields.merge(field(delta), (long) delta.change(), Long::sum);
    }

    private static String field(UnreadDelta delta) {
        return "s" + delta.sourceId() + ":" + delta.media().bit();
    }

    static Unread summarise(List<UnreadDelta> groups, long trimmed) {
        UnreadTally tally = new UnreadTally();
        groups.forEach(group -> tally.add(group.sourceId(), group.media(), group.change()));
        return tally.build(trimmed);
    }

    private static Unread parse(Map<Object, Object> hash) {
        long trimmed = 0;
        UnreadTally tally = new UnreadTally();
        for (Map.Entry<Object, Object> entry : hash.entrySet()) {
            String field = (String) entry.getKey();
            if (field.startsWith("_")) {
                continue;
            }
            long value = Long.parseLong((String) entry.getValue());
            if (value <= 0) {
                continue;
            }
            int colon = field.indexOf(':');
            if (field.charAt(0) == 's' && colon > 1) {
                tally.add(Long.parseLong(field, 1, colon, 10), MediaType.ofBit(Integer.parseInt(field, colon + 1, field.length(), 10)), value);
            } else if (field.equals("x")) {
                trimmed = value;
            }
        }
        return tally.build(trimmed);
    }

    private static String token() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }
}
