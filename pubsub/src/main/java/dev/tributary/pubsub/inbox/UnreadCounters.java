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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
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
 * entries lost to trimming), kept exact against MySQL, the truth (the inbox, and
 * {@code inbox_trimmed} for {@code x}). A built hash counts the person's unread entries up to
 * its horizon {@code _h}, an item id never above the global {@link CountHorizon} unless the
 * person is promoted; a read adds the entries above {@code _h}, counted from the inbox, and folds
 * them in once enough of them lie at or below the global horizon. So a fan-out batch of an item
 * above the global horizon moves no counter ({@link #delivered}) but those of promoted people: a
 * read that counts many entries above the global horizon has its person promoted ({@link #promote}),
 * whose hash then counts every entry ({@link #PROMOTED}) for as long as the promotion, in their
 * bucket's sorted set ({@link #promotedKey}), holds. The same hash carries until when a live
 * stream of the person listens (the value of {@code _b}, the built mark, once built; {@code _l}
 * before), and so does the person's bucket's sorted set of listeners ({@link #listeningKey}),
 * which a batch of items above the global horizon reads: announcements go out only to such people.
 *
 * <p>The protocol. A writer moves the counters inside its transaction, after its rows are
 * written and locked, before it commits ({@link #apply}); it moves a built hash only for an entry
 * at or below the hash's horizon, and stamps a fresh random generation {@code _g} where it
 * skipped one above it or found the hash unbuilt. A rollback invalidates what it moved. A rebuild
 * (a read that finds no built hash) stamps a generation if there is none, remembers it, counts the
 * inbox with a locking read, which waits for every writer still holding one of the person's rows,
 * and writes the counts up to the global horizon only if the generation has not moved. So a delta
 * is either in the count (its writer committed before the count, having moved an unbuilt hash:
 * nothing) or not (its writer locked rows after the count, and moves the hash after the rebuild
 * wrote it, or moved the generation and made it retry). A fold (up to a horizon W) is the same
 * argument over the entries between {@code _h} and W, written only if neither {@code _g} nor
 * {@code _h} moved. Fan-out batches that moved nothing are in any count up to W because W could
 * only be raised once they had committed ({@link CountHorizon}). A promotion is the fold's
 * argument over every entry above {@code _h}: the batches that read W before the promotion's
 * mark was in Redis have committed before its count ({@link CountHorizon#barrier}), and every
 * later batch sees the mark and moves the hash. The hash keeps its promotion's mark
 * ({@code _c}); a read trusts it only while the bucket's set holds that mark and it has not
 * lapsed (Redis's clock, the one batches compare with), checked in the script that reads the
 * hash; a hash whose promotion lapsed or was replaced is dropped and rebuilt.
 * A hash lost to a restart, {@code FLUSHALL}, eviction or expiry is simply unbuilt again.
 */
@Component
class UnreadCounters implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(UnreadCounters.class);

    /**
     * A promoted hash's horizon: above every item id (a long has at most 19 digits), so it counts
     * every entry and reads add nothing from the inbox.
     */
    static final String PROMOTED = "99999999999999999999";

    /** Compares two item ids written in decimal (Lua's numbers are doubles: ids above 2^53 would round). */
    private static final String AT_OR_BELOW = """
            local function le(a, b)
              return #a < #b or (#a == #b and a <= b)
            end
            """;

    /**
     * Moves one person's hash by the (field, item id, change) triples ARGV[from..to] (ARGV[1] is the
     * call's fresh generation): on a built hash, the fields of items at or below its horizon, and a
     * new generation (and no {@code _s}) if any lay above; on an unbuilt one that exists, a new
     * generation if there was any move. Returns the person's live-stream mark ({@code _b} or {@code _l}).
     */
    private static final String MOVE_HASH = AT_OR_BELOW + """
            local function move(key, from, to)
              local marks = redis.call('HMGET', key, '_b', '_h')
              if marks[1] then
                local h = marks[2] or '0'
                local above = false
                for i = from, to, 3 do
                  if le(ARGV[i + 1], h) then
                    if redis.call('HINCRBY', key, ARGV[i], ARGV[i + 2]) <= 0 then
                      redis.call('HDEL', key, ARGV[i])
                    end
                  else
                    above = true
                  end
                end
                if above then
                  redis.call('HSET', key, '_g', ARGV[1])
                  redis.call('HDEL', key, '_s')
                end
                return marks[1]
              end
              local unbuilt = redis.call('HMGET', key, '_g', '_l')
              if to >= from and (unbuilt[1] or unbuilt[2]) then
                redis.call('HSET', key, '_g', ARGV[1])
              end
              return unbuilt[2]
            end
            """;

    /**
     * Moves the counters of many people in one call. ARGV[1] is a fresh generation; then, per group
     * of people whose moves are alike (usually every recipient of a batch): its number of people,
     * its number of moves, its number of announcements, the (field, item id, change) triples and the
     * announcements; KEYS are the people's hashes, group after group. A built hash is counted into
     * for the moves of items at or below its horizon {@code _h}; a move above it is left to reads
     * (they count those entries from the inbox) and stamps the generation, which voids a fold in
     * flight. Its {@code _b} also says until when a live stream listens ({@code 1}: none). An
     * unbuilt hash that exists (e.g. while a rebuild is counting it) gets the new generation; an
     * absent one is left absent; its {@code _l} says until when a stream listens. Announcements go
     * out only to a listening person: nobody else hears them. A person's channel is named from the
     * id that ends their key, as {@link InboxEvent#channel} names it.
     */
    private static final String APPLY = MOVE_HASH + """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local a = 2
            local k = 1
            while k <= #KEYS do
              local c = tonumber(ARGV[a])
              local n = tonumber(ARGV[a + 1])
              local m = tonumber(ARGV[a + 2])
              local f = a + 3
              local s = f + 3 * n
              a = s + m
              for j = k, k + c - 1 do
                local key = KEYS[j]
                local live = move(key, f, s - 1)
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
     * Publishes ARGV[from..to] on the channel of each person ARGV[first..last] whose mark in the
     * sorted set {@code listeners} is later than {@code now}; the number told. A set that does not
     * exist costs one {@code EXISTS}. A person's channel is named from their id, as
     * {@link InboxEvent#channel} names it.
     */
    private static final String TELL = """
            local function tell(listeners, first, last, from, to, now)
              if to < from or redis.call('EXISTS', listeners) == 0 then
                return 0
              end
              local marks = redis.call('ZMSCORE', listeners, unpack(ARGV, first, last))
              local told = 0
              for i = 1, last - first + 1 do
                if marks[i] and tonumber(marks[i]) > now then
                  local id = ARGV[first + i - 1]
                  local channel = $CHANNEL
                  for j = from, to do
                    redis.call('PUBLISH', channel, ARGV[j])
                  end
                  told = told + 1
                end
              end
              return told
            end
            """.replace("$CHANNEL", "'" + InboxEvent.channel("' .. id .. '") + "'");

    /**
     * Announces a committed change to its listening people ({@link #apply}). KEYS are the buckets'
     * sets of listeners ({@link #listeningKey}), one per group; per group ARGV holds its number of
     * people, its number of announcements, the people's ids and the announcements. A bucket nobody
     * listens in costs one {@code EXISTS}.
     */
    private static final String ANNOUNCE = TELL + """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local a = 1
            local sent = 0
            for g = 1, #KEYS do
              local c = tonumber(ARGV[a])
              local m = tonumber(ARGV[a + 1])
              local first = a + 2
              local s = first + c
              a = s + m
              sent = sent + tell(KEYS[g], first, s - 1, s, a - 1, now)
            end
            return sent
            """;

    /**
     * A fan-out batch's entries of items above the global horizon: counted for the promoted people
     * among their recipients, announced to the listening ones. ARGV[1] is a fresh generation; KEYS
     * are, per group, the bucket's set of listeners and its set of promoted people; per group ARGV
     * holds its numbers of people, announcements and moves, the bucket's hash-key prefix, the
     * people's ids, the announcements and the (field, item id, change) triples. A person whose
     * promotion has not lapsed (Redis's clock) has their hash moved as {@code APPLY} moves it
     * ({@link #MOVE_HASH}; a promoted hash's horizon is above every item). Returns the ids of the people moved. A bucket
     * with neither costs two {@code EXISTS}.
     */
    private static final String ABOVE = MOVE_HASH + TELL + """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local a = 2
            local moved = {}
            for g = 1, #KEYS, 2 do
              local c = tonumber(ARGV[a])
              local m = tonumber(ARGV[a + 1])
              local d = tonumber(ARGV[a + 2])
              local prefix = ARGV[a + 3]
              local first = a + 4
              local s = first + c
              local t = s + m
              a = t + 3 * d
              if d > 0 and redis.call('EXISTS', KEYS[g + 1]) == 1 then
                local marks = redis.call('ZMSCORE', KEYS[g + 1], unpack(ARGV, first, s - 1))
                for i = 1, c do
                  if marks[i] and tonumber(marks[i]) > now then
                    local id = ARGV[first + i - 1]
                    move(prefix .. id, t, a - 1)
                    moved[#moved + 1] = id
                  end
                end
              end
              tell(KEYS[g], first, s - 1, s, t - 1, now)
            end
            return moved
            """;

    /**
     * Marks person {@code id} promoted until {@code now + ttl} (ms) in the bucket's set
     * {@code promoted}, which lives at least as long; returns the mark.
     */
    private static final String MARK_PROMOTED = """
            local function promoted(set, id, now, ttl)
              local mark = string.format('%.0f', now + ttl)
              redis.call('ZADD', set, mark, id)
              if redis.call('PTTL', set) < ttl then
                redis.call('PEXPIRE', set, ttl)
              end
              return mark
            end
            """;

    /**
     * Promotes a person in their bucket's set (KEYS[1]; ARGV: their id, how long in ms), dropping
     * lapsed promotions; returns until when (ms, Redis's clock).
     */
    private static final String REGISTER = MARK_PROMOTED + """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
            return promoted(KEYS[1], ARGV[1], now, tonumber(ARGV[2]))
            """;

    /**
     * Moves a built hash (KEYS[1]) to the promoted horizon, adding the counts of the entries above
     * its horizon (ARGV: the generation read before they were counted, the old horizon, the
     * promotion's mark as {@code REGISTER} returned it, the person's id, then field and count
     * pairs), unless the generation or the horizon moved, or the promotion in the bucket's set
     * (KEYS[2]) is not that one or has lapsed. The hash keeps the mark in {@code _c}.
     */
    private static final String PROMOTE = """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local marks = redis.call('HMGET', KEYS[1], '_b', '_g', '_h')
            if not marks[1] or marks[2] ~= ARGV[1] or marks[3] ~= ARGV[2] then
              return 0
            end
            local score = redis.call('ZSCORE', KEYS[2], ARGV[4])
            if not score or tonumber(score) ~= tonumber(ARGV[3]) or tonumber(score) <= now then
              return 0
            end
            for i = 5, #ARGV, 2 do
              redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
            end
            redis.call('HSET', KEYS[1], '_h', '$PROMOTED', '_c', ARGV[3])
            redis.call('HDEL', KEYS[1], '_s')
            return 1
            """.replace("$PROMOTED", PROMOTED);

    /**
     * A promoted hash (KEYS[1]) as it is now, if its promotion (its {@code _c}) is the one in the
     * bucket's set (KEYS[2]; ARGV: the person's id, the promotion's length in ms) and has not
     * lapsed, renewing it when less than half is left; else nothing. One script, so what it
     * returns was counted into by every batch since the promotion.
     */
    private static final String CHECK = MARK_PROMOTED + """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local mark = redis.call('HGET', KEYS[1], '_c')
            local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
            if not mark or not score or tonumber(mark) ~= tonumber(score) or tonumber(score) <= now then
              return {}
            end
            local ttl = tonumber(ARGV[2])
            if tonumber(score) - now < ttl / 2 then
              redis.call('HSET', KEYS[1], '_c', promoted(KEYS[2], ARGV[1], now, ttl))
            end
            return redis.call('HGETALL', KEYS[1])
            """;

    /**
     * Live streams of these people are open: each mark ({@code _b} of a built hash, else {@code _l})
     * is now + ARGV[1] ms (Redis's clock), and each hash lives at least that long, so the mark
     * outlives every renewal interval; the same mark goes into the person's bucket's set of
     * listeners (KEYS[n + k] for the person of KEYS[k], whose id is ARGV[k + 1]), whose lapsed
     * marks leave it.
     */
    private static final String LISTENING = """
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local ttl = tonumber(ARGV[1])
            local mark = string.format('%.0f', now + ttl)
            local n = #KEYS / 2
            for k = 1, n do
              if redis.call('HEXISTS', KEYS[k], '_b') == 1 then
                redis.call('HSET', KEYS[k], '_b', mark)
                redis.call('HDEL', KEYS[k], '_l')
              else
                redis.call('HSET', KEYS[k], '_l', mark)
              end
              if redis.call('PTTL', KEYS[k]) < ttl then
                redis.call('PEXPIRE', KEYS[k], ttl)
              end
              local listeners = KEYS[n + k]
              redis.call('ZREMRANGEBYSCORE', listeners, '-inf', now)
              redis.call('ZADD', listeners, mark, ARGV[k + 1])
              if redis.call('PTTL', listeners) < ttl then
                redis.call('PEXPIRE', listeners, ttl)
              end
            end
            return n
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

    /**
     * Writes a rebuilt hash (ARGV: generation, TTL, horizon, the version it answers alone at, or
     * empty, then field and count pairs) unless the generation moved.
     */
    private static final String REBUILD = """
            if redis.call('HGET', KEYS[1], '_g') ~= ARGV[1] then
              return 0
            end
            if redis.call('HEXISTS', KEYS[1], '_b') == 1 then
              return 2
            end
            local live = redis.call('HGET', KEYS[1], '_l')
            redis.call('DEL', KEYS[1])
            redis.call('HSET', KEYS[1], '_b', live or '1', '_g', ARGV[1], '_h', ARGV[3])
            if ARGV[4] ~= '' then
              redis.call('HSET', KEYS[1], '_s', ARGV[4])
            end
            for i = 5, #ARGV, 2 do
              redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
            end
            redis.call('EXPIRE', KEYS[1], ARGV[2])
            return 1
            """;

    /**
     * Folds the counts of the entries between a built hash's horizon and a higher one into it
     * (ARGV: the generation read before they were counted, the old horizon, the new one, the
     * version it then answers alone at or empty, then field and count pairs), unless the
     * generation or the horizon moved meanwhile.
     */
    private static final String FOLD = """
            local marks = redis.call('HMGET', KEYS[1], '_b', '_g', '_h')
            if not marks[1] or marks[2] ~= ARGV[1] or marks[3] ~= ARGV[2] then
              return 0
            end
            for i = 5, #ARGV, 2 do
              redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
            end
            redis.call('HSET', KEYS[1], '_h', ARGV[3])
            if ARGV[4] ~= '' then
              redis.call('HSET', KEYS[1], '_s', ARGV[4])
            else
              redis.call('HDEL', KEYS[1], '_s')
            end
            return 1
            """;

    /**
     * Marks a built hash as answering alone at a version of the person's inbox (ARGV: the
     * generation and horizon it was read with, the version), unless either moved meanwhile.
     */
    private static final String MARK = """
            local marks = redis.call('HMGET', KEYS[1], '_b', '_g', '_h')
            if not marks[1] or marks[2] ~= ARGV[1] or marks[3] ~= ARGV[2] then
              return 0
            end
            redis.call('HSET', KEYS[1], '_s', ARGV[3])
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
    private static final DefaultRedisScript<Long> FOLD_SCRIPT = new DefaultRedisScript<>(FOLD, Long.class);
    private static final DefaultRedisScript<Long> MARK_SCRIPT = new DefaultRedisScript<>(MARK, Long.class);
    private static final DefaultRedisScript<Long> ANNOUNCE_SCRIPT = new DefaultRedisScript<>(ANNOUNCE, Long.class);
    @SuppressWarnings("rawtypes")
    private static final DefaultRedisScript<List> ABOVE_SCRIPT = new DefaultRedisScript<>(ABOVE, List.class);
    private static final DefaultRedisScript<String> REGISTER_SCRIPT = new DefaultRedisScript<>(REGISTER, String.class);
    private static final DefaultRedisScript<Long> PROMOTE_SCRIPT = new DefaultRedisScript<>(PROMOTE, Long.class);
    @SuppressWarnings("rawtypes")
    private static final DefaultRedisScript<List> CHECK_SCRIPT = new DefaultRedisScript<>(CHECK, List.class);

    /** How many media types there are: {@code values()} copies its array at every call. */
    private static final int MEDIA_TYPES = MediaType.values().length;
    /** Each bucket's set of listeners, named once: a fan-out batch names a thousand people's. */
    private static final List<String> LISTENING_KEYS = PersonSlots.tags().stream().map(tag -> "tributary:listening:v1:" + tag).toList();
    /** Each bucket's set of promoted people, by until when (ms). */
    private static final List<String> PROMOTED_KEYS = PersonSlots.tags().stream().map(tag -> "tributary:promoted:v1:" + tag).toList();
    /**
     * What each bucket's hash keys start with ({@link #key}; the fan-out script names hashes from
     * it). v3: counts up to the horizon _h; hashes of earlier layouts (v2 counted every entry) are not read.
     */
    private static final List<String> KEY_PREFIXES = PersonSlots.tags().stream().map(tag -> "tributary:unread:v3:" + tag + ":").toList();
    /** People queued for promotion on this node at most: beyond it a read asks for none (a later one will). */
    private static final int MAX_PROMOTING = 10_000;
    /** People per script call: keeps one call's arguments to a few hundred KB. */
    private static final int PEOPLE_PER_CALL = 1000;

    private final StringRedisTemplate redis;
    private final InboxTable inbox;
    private final long ttlSeconds;
    private final InboxMetrics metrics;
    private final boolean cluster;
    private final PageStamps stamps;
    private final Transactions tx;
    private final CountHorizon horizon;
    /**
     * Entries between a person's horizon and the global one that make a read fold them into the
     * counters ({@code tributary.timeline.count-fold-at}): below it, counting them on each read is
     * cheaper than a fold's locking count.
     */
    private final int foldAt;
    /** Entries above the global horizon that make a read promote the person ({@code count-promote-at}). */
    private final int promoteAt;
    /** How long a promotion lasts after the last read, in ms ({@code count-promoted-for}). */
    private final String promotedFor;
    /** People whose promotion this node's promoter has yet to make. */
    private final Set<Long> promoting = ConcurrentHashMap.newKeySet();
    /** One thread: promotions wait for fan-out batches, and a node needs few at a time. */
    private final ExecutorService promoter = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("count-promotions").daemon(true).factory());
    /** How long a read written straight on the connection may take: the client's own command timeout. */
    private final Duration timeout;

    UnreadCounters(StringRedisTemplate redis, InboxTable inbox, TimelineSettings settings, InboxMetrics metrics,
            PageStamps stamps, Transactions tx, CountHorizon horizon) {
        this.horizon = horizon;
        this.foldAt = settings.countFoldAt();
        this.promoteAt = settings.countPromoteAt();
        this.promotedFor = Long.toString(settings.countPromotedFor().toMillis());
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

    /** What one call does to a person's hash: the field changes by item, and the announcements on their channel. */
    private record Move(Map<FieldAt, Long> fields, List<String> messages) {}

    /** A counter field moved for an entry of an item (0: regardless of horizons, as {@code x} is). */
    private record FieldAt(String field, long itemId) {}

    /** The person's hash; tagged with their bucket so one call can move a whole batch per slot (see {@link PersonSlots}). */
    static String key(long userId) {
        return KEY_PREFIXES.get(PersonSlots.bucket(userId)) + userId;
    }

    /** The sorted set of the promoted people of the person's bucket, by until when (ms). */
    static String promotedKey(long userId) {
        return PROMOTED_KEYS.get(PersonSlots.bucket(userId));
    }

    /** The sorted set of the people of the person's bucket whose live stream listens, by until when (ms). */
    static String listeningKey(long userId) {
        return LISTENING_KEYS.get(PersonSlots.bucket(userId));
    }

    /**
     * Moves counters, in one script call per thousand people, and announces {@code event} (may be
     * null) to {@code notify} once the transaction has committed. Call it inside the writer's
     * transaction, after its rows are written: if that transaction then rolls back, the people's
     * counters are invalidated.
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
     * (a retraction that also promoted copies, not the same to everyone).
     */
    void apply(Collection<UnreadDelta> deltas, Map<Long, Long> trimmed, Map<Long, List<String>> announcements) {
        // Announced once the change has committed and the people's stamps have moved (both after
        // the commit, in that order): a live stream re-reads the counts when told, and entries above
        // a person's horizon are counted from the inbox, which shows the change only once committed.
        Map<Long, List<String>> silent = new LinkedHashMap<>();
        announcements.keySet().forEach(person -> silent.put(person, List.of()));
        List<Long> people = move(deltas, trimmed, silent);
        if (!people.isEmpty()) {
            stampsMove(people, false);
        }
        Map<Long, List<String>> told = new LinkedHashMap<>(announcements);
        tx.afterCommit(() -> announceQuietly(told));
    }

    /** {@link #announce}, after a commit: a failure must not fail the change, and costs only that announcement. */
    private void announceQuietly(Map<Long, List<String>> announcements) {
        try {
            announce(announcements);
        } catch (DataAccessException e) {
            log.warn("could not announce a committed change to {} people: {}", announcements.size(), e.toString());
        }
    }

    /**
     * A fan-out batch's entries, written in the caller's transaction after it read the count horizon
     * ({@link CountHorizon#forBatch}): those of items above it move no counter but a promoted
     * person's (every other hash counts only up to its own horizon, which is never above the global
     * one), so a batch of a new item costs Redis one call per bucket, and nothing per recipient
     * but those promoted; the others move as {@link #apply} moves them. {@code announcements} (one list per person of the rows)
     * reach the listening people either way, inside the transaction; with {@code later} (more
     * batches to come) the people's page stamps move off the caller's thread after the commit
     * ({@link PageStamps#peopleDelivered}).
     */
    void delivered(List<InboxRow> rows, long countHorizon, Map<Long, List<String>> announcements, boolean later) {
        Set<Long> counting = new HashSet<>();
        for (InboxRow row : rows) {
            if (!row.read() && row.itemId() <= countHorizon) {
                counting.add(row.userId());
            }
        }
        // A person given an entry at or below the horizon has all of theirs moved as apply moves
        // them (in one call, messages and all); the others' go to the promoted and listening ones.
        List<UnreadDelta> counted = new ArrayList<>();
        Map<Long, List<String>> uncounted = new HashMap<>();
        // A batch's thousand people usually share one move: each (source, media, item) is spelled once.
        Map<Entry, List<String>> spelled = new HashMap<>();
        for (InboxRow row : rows) {
            if (row.read()) {
                continue;
            }
            if (counting.contains(row.userId())) {
                counted.add(UnreadDelta.of(row, 1));
            } else {
                List<String> move = spelled.computeIfAbsent(new Entry(row.sourceId(), row.media(), row.itemId()),
                        entry -> List.of(field(entry.sourceId(), entry.media()), Long.toString(entry.itemId()), "1"));
                uncounted.merge(row.userId(), move, UnreadCounters::joined);
            }
        }
        Map<Long, List<String>> viaCounters = new LinkedHashMap<>();
        Map<Long, List<String>> viaAbove = new LinkedHashMap<>(announcements);
        for (long person : counting) {
            List<String> messages = viaAbove.remove(person);
            viaCounters.put(person, messages != null ? messages : List.of());
        }
        move(counted, Map.of(), viaCounters);
        List<Long> moved = above(viaAbove, uncounted);
        if (!moved.isEmpty()) {
            tx.afterRollback(() -> {
                try {
                    invalidate(moved);
                } finally {
                    stamps.peopleRolledBack(moved);
                }
            });
        }
        stampsMove(List.copyOf(announcements.keySet()), later);
    }

    /** What a group of a batch's people above the horizon share: their announcements and their moves. */
    private record Alike(List<String> messages, List<String> moves) {}

    /** An entry as a move names it: its source, media type and item. */
    private record Entry(long sourceId, MediaType media, long itemId) {}

    private static List<String> joined(List<String> first, List<String> second) {
        List<String> both = new ArrayList<>(first.size() + second.size());
        both.addAll(first);
        both.addAll(second);
        return both;
    }

    /**
     * A batch's entries above the global horizon ({@code moves}, by person, as the script's
     * (field, item id, +1) triples; a person may have none, all theirs read): counted for the
     * promoted people, announced to the listening ones
     * ({@code announcements}), in one script call per thousand people (per bucket on a cluster).
     * Returns the people whose counters moved, whom a rollback must invalidate.
     */
    private List<Long> above(Map<Long, List<String>> announcements, Map<Long, List<String>> moves) {
        if (announcements.isEmpty()) {
            return List.of();
        }
        List<Long> moved = new ArrayList<>();
        String generation = token();
        forEachCall(List.copyOf(announcements.keySet()), users -> {
            Map<Integer, Map<Alike, List<String>>> byBucket = new LinkedHashMap<>();
            for (long user : users) {
                Alike alike = new Alike(announcements.get(user), moves.getOrDefault(user, List.of()));
                if (!alike.messages().isEmpty() || !alike.moves().isEmpty()) {
                    byBucket.computeIfAbsent(PersonSlots.bucket(user), bucket -> new LinkedHashMap<>())
                            .computeIfAbsent(alike, a -> new ArrayList<>()).add(Long.toString(user));
                }
            }
            if (byBucket.isEmpty()) {
                return;
            }
            List<String> keys = new ArrayList<>();
            List<String> args = new ArrayList<>(users.size() + 16);
            args.add(generation);
            byBucket.forEach((bucket, groups) -> groups.forEach((alike, ids) -> {
                keys.add(LISTENING_KEYS.get(bucket));
                keys.add(PROMOTED_KEYS.get(bucket));
                args.add(Integer.toString(ids.size()));
                args.add(Integer.toString(alike.messages().size()));
                args.add(Integer.toString(alike.moves().size() / 3));
                args.add(KEY_PREFIXES.get(bucket));
                args.addAll(ids);
                args.addAll(alike.messages());
                args.addAll(alike.moves());
            }));
            List<?> ids = redis.execute(ABOVE_SCRIPT, keys, args.toArray());
            if (ids != null) {
                ids.forEach(id -> moved.add(Long.valueOf(id.toString())));
            }
        });
        return moved;
    }

    /** Moves the counters and announces (see {@link #apply}); the people moved, whose counters a rollback invalidates. */
    private List<Long> move(Collection<UnreadDelta> deltas, Map<Long, Long> trimmed, Map<Long, List<String>> announcements) {
        Map<Long, Map<FieldAt, Long>> byUser = new LinkedHashMap<>();
        announcements.keySet().forEach(user -> byUser.put(user, new LinkedHashMap<>()));
        // A batch's thousand deltas name a handful of fields: each field's name is made once, so its
        // hash is computed once when the people's moves are grouped below.
        Map<Long, String[]> names = new HashMap<>();
        for (UnreadDelta delta : deltas) {
            String[] ofSource = names.computeIfAbsent(delta.sourceId(), source -> new String[MEDIA_TYPES]);
            int type = delta.media().ordinal();
            String field = ofSource[type] != null ? ofSource[type] : (ofSource[type] = field(delta));
            byUser.computeIfAbsent(delta.userId(), u -> new LinkedHashMap<>())
                    .merge(new FieldAt(field, delta.itemId()), (long) delta.change(), Long::sum);
        }
        trimmed.forEach((user, count) -> byUser.computeIfAbsent(user, u -> new LinkedHashMap<>())
                .merge(new FieldAt("x", 0), count, Long::sum));
        if (byUser.isEmpty()) {
            return List.of();
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
            List<String> args = new ArrayList<>(1 + groups.size() * 9);
            args.add(generation);
            groups.forEach((move, groupKeys) -> {
                keys.addAll(groupKeys);
                args.add(Integer.toString(groupKeys.size()));
                args.add(Integer.toString(move.fields().size()));
                args.add(Integer.toString(move.messages().size()));
                move.fields().forEach((field, change) -> {
                    args.add(field.field());
                    args.add(Long.toString(field.itemId()));
                    args.add(Long.toString(change));
                });
                args.addAll(move.messages());
            });
            redis.execute(APPLY_SCRIPT, keys, args.toArray());
        });
        return people;
    }

    /** Every inbox change passes here: cached pages of these people are void once it commits. */
    private void stampsMove(List<Long> people, boolean later) {
        if (later) {
            stamps.peopleDelivered(people);
        } else {
            stamps.peopleChanged(people);
        }
    }

    /**
     * Sends each person their announcements if their live stream listens, as the bucket's set of
     * listeners says: one script call per thousand people (per bucket on a cluster).
     */
    private void announce(Map<Long, List<String>> announcements) {
        announcements.values().removeIf(List::isEmpty);
        if (announcements.isEmpty()) {
            return;
        }
        forEachCall(List.copyOf(announcements.keySet()), users -> {
            Map<String, Map<List<String>, List<String>>> byBucket = new LinkedHashMap<>();
            for (long user : users) {
                byBucket.computeIfAbsent(listeningKey(user), bucket -> new LinkedHashMap<>())
                        .computeIfAbsent(announcements.get(user), messages -> new ArrayList<>()).add(Long.toString(user));
            }
            List<String> keys = new ArrayList<>();
            List<String> args = new ArrayList<>(users.size() + 8);
            byBucket.forEach((bucket, groups) -> groups.forEach((messages, ids) -> {
                keys.add(bucket);
                args.add(Integer.toString(ids.size()));
                args.add(Integer.toString(messages.size()));
                args.addAll(ids);
                args.addAll(messages);
            }));
            redis.execute(ANNOUNCE_SCRIPT, keys, args.toArray());
        });
    }

    /**
     * Marks these people as listening to their channel for {@code ttl} (a live stream is open):
     * only they get announcements. One script call per thousand people. Call it before subscribing, and
     * again well within {@code ttl} while the stream stays open.
     */
    void listening(Collection<Long> users, Duration ttl) {
        String millis = Long.toString(ttl.toMillis());
        forEachCall(List.copyOf(users), chunk -> {
            List<String> keys = new ArrayList<>(chunk.stream().map(UnreadCounters::key).toList());
            chunk.forEach(user -> keys.add(listeningKey(user)));
            List<String> args = new ArrayList<>(chunk.size() + 1);
            args.add(millis);
            chunk.forEach(user -> args.add(Long.toString(user)));
            redis.execute(LISTENING_SCRIPT, keys, args.toArray());
        });
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
        Map<Long, @Nullable Map<Object, Object>> hashes = new HashMap<>();
        hashes.put(userId, alreadyRead);
        return readAll(hashes, Map.of()).get(userId);
    }

    /**
     * The counts of many people, starting from their hashes as {@link #readWith} read them (a null
     * hash is read here): the entries above the built hashes' horizons are counted for all of them
     * in one statement; unbuilt hashes are rebuilt one by one. {@code versions} holds, per person,
     * the version of their inbox read before their hash (the epoch and their page stamp, which
     * every change to the inbox moves after it commits, see {@link PageStamps}): a hash marked
     * with it ({@code _s}) had nothing unread above its horizon at that version, so it answers
     * alone; a person whose count finds nothing unread above gets the mark.
     */
    Map<Long, Unread> readAll(Map<Long, @Nullable Map<Object, Object>> hashes, Map<Long, String> versions) {
        Map<Long, Unread> answers = new HashMap<>();
        Map<Long, Map<Object, Object>> built = new HashMap<>();
        hashes.forEach((person, given) -> {
            Map<Object, Object> hash = given != null ? given : redis.opsForHash().entries(key(person));
            String version = versions.get(person);
            if (isBuilt(hash) && PROMOTED.equals(hash.get("_h"))) {
                answers.put(person, promoted(person, version));
            } else if (isBuilt(hash) && version != null && version.equals(hash.get("_s"))) {
                answers.put(person, parse(hash, List.of()));
            } else if (isBuilt(hash)) {
                built.put(person, hash);
            } else {
                answers.put(person, rebuilt(person, version));
            }
        });
        answers.putAll(withAbove(built, versions));
        return answers;
    }

    private static boolean isBuilt(Map<Object, Object> hash) {
        return hash.containsKey("_b") && hash.containsKey("_h");
    }

    /**
     * A promoted person's counts: their hash alone while their promotion holds (every fan-out
     * batch since it began moved the hash); else, the promotion having lapsed, batches may have
     * passed them by, so the hash is dropped and rebuilt.
     */
    private Unread promoted(long userId, @Nullable String version) {
        List<?> fields = redis.execute(CHECK_SCRIPT, List.of(key(userId), promotedKey(userId)), Long.toString(userId), promotedFor);
        if (fields != null && !fields.isEmpty()) {
            Map<Object, Object> hash = new HashMap<>();
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                hash.put(fields.get(i).toString(), fields.get(i + 1).toString());
            }
            return parse(hash, List.of());
        }
        invalidate(List.of(userId));
        return rebuilt(userId, version);
    }

    /**
     * Built hashes' counts with the entries above their horizons added from the inbox; a person with
     * {@link #foldAt} or more entries (read or not) between their horizon and the global one has
     * them folded in; one left with nothing unread above is marked with their version.
     */
    private Map<Long, Unread> withAbove(Map<Long, Map<Object, Object>> built, Map<Long, String> versions) {
        if (built.isEmpty()) {
            return Map.of();
        }
        long upTo = horizon.known();
        Map<Long, Long> horizons = new HashMap<>();
        built.forEach((person, hash) -> horizons.put(person, Long.parseLong((String) hash.get("_h"))));
        Map<Long, InboxTable.Above> above = inbox.unreadAbove(horizons, upTo);
        Map<Long, Unread> answers = new HashMap<>();
        built.forEach((person, hash) -> {
            InboxTable.Above theirs = above.get(person);
            answers.put(person, parse(hash, theirs.groups()));
            String version = versions.get(person);
            if (theirs.entries() - theirs.foldable() >= promoteAt) {
                promoteSoon(person);
            }
            if (theirs.foldable() >= foldAt && upTo > horizons.get(person)) {
                boolean nothingLeft = theirs.foldableUnread() == theirs.unread();
                fold(person, hash, upTo, nothingLeft ? version : null);
            } else if (theirs.unread() == 0 && version != null) {
                redis.execute(MARK_SCRIPT, List.of(key(person)), hash.get("_g"), hash.get("_h"), version);
            }
        });
        return answers;
    }

    /**
     * Moves a built hash's horizon up to {@code upTo}, a committed global horizon, adding the
     * entries between: their count is a locking read, and the hash is written only if neither its
     * generation (read with the hash, before the count) nor its horizon moved meanwhile, so a
     * writer of one of those entries is either in the count or voids the fold (see the class).
     * With {@code version}, nothing unread lies above {@code upTo} and the hash is marked with it.
     */
    private void fold(long userId, Map<Object, Object> hash, long upTo, @Nullable String version) {
        Object generation = hash.get("_g");
        String from = (String) hash.get("_h");
        if (generation == null) {
            return;
        }
        List<UnreadDelta> groups = inbox.unreadGroupsBetween(userId, Long.parseLong(from), upTo);
        Map<String, Long> fields = new LinkedHashMap<>();
        groups.forEach(group -> addTo(fields, group));
        List<String> args = new ArrayList<>(4 + fields.size() * 2);
        args.add((String) generation);
        args.add(from);
        args.add(Long.toString(upTo));
        args.add(version == null ? "" : version);
        fields.forEach((field, count) -> {
            args.add(field);
            args.add(Long.toString(count));
        });
        redis.execute(FOLD_SCRIPT, List.of(key(userId)), args.toArray());
        metrics.counterFolded();
    }

    /**
     * Hands the person to this node's promoter thread, unless they are queued already or
     * {@link #MAX_PROMOTING} people are: the read that asked answers from what it counted, without
     * waiting for the barrier and the locking count (12 ms on average in the fan-out benchmark's b),
     * three times the read), and the person's later reads find the hash promoted.
     */
    private void promoteSoon(long userId) {
        if (promoting.size() >= MAX_PROMOTING || !promoting.add(userId)) {
            return;
        }
        try {
            promoter.execute(() -> {
                try {
                    promote(userId);
                } catch (RuntimeException e) {
                    log.warn("could not promote {}: {}", userId, e.toString());
                } finally {
                    promoting.remove(userId);
                }
            });
        } catch (RejectedExecutionException stopped) {
            promoting.remove(userId);
        }
    }

    /** Waits until the promotions asked for before this call are made or given up, at most {@code timeout}; false if not. */
    boolean promotionsSettled(Duration timeout) {
        try {
            promoter.submit(() -> { }).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            return false;
        }
    }

    @Override
    public void destroy() {
        promoter.shutdownNow();
    }

    /**
     * Promotes a person whose reads count many entries above the global horizon, so that every
     * fan-out batch moves their hash from now on: marks them in their bucket's set of promoted
     * people, waits until every batch that might not have seen the mark has committed
     * ({@link CountHorizon#barrier}), then adds every entry above the hash's horizon with a
     * locking count and moves the horizon above every item, unless the generation (read after the
     * barrier, before the count) or the horizon moved meanwhile, as a fold does. A batch that saw the
     * mark moves the hash itself: before the promotion it finds an entry above the horizon and
     * moves the generation (the promotion fails and the next read tries again), after it counts.
     * (Read before the barrier, the generation would be moved by every batch the barrier waits
     * for: under steady fan-out to the person, no promotion would ever succeed.)
     * Runs on the node's promoter thread ({@link #promoteSoon}), outside any transaction, whose end
     * would hold the horizon's lock; false if it did not happen.
     */
    private boolean promote(long userId) {
        try {
            String mark = redis.execute(REGISTER_SCRIPT, List.of(promotedKey(userId)), Long.toString(userId), promotedFor);
            horizon.barrier();
            // Read after the barrier: every batch in flight then has moved the generation already.
            List<Object> marks = redis.opsForHash().multiGet(key(userId), List.of("_b", "_g", "_h"));
            Object generation = marks.get(1);
            String from = (String) marks.get(2);
            if (marks.get(0) == null || generation == null || from == null || PROMOTED.equals(from)) {
                return false;
            }
            Map<String, Long> fields = new LinkedHashMap<>();
            inbox.unreadGroupsBetween(userId, Long.parseLong(from), Long.MAX_VALUE).forEach(group -> addTo(fields, group));
            List<String> args = new ArrayList<>(4 + fields.size() * 2);
            args.add((String) generation);
            args.add(from);
            args.add(mark);
            args.add(Long.toString(userId));
            fields.forEach((field, count) -> {
                args.add(field);
                args.add(Long.toString(count));
            });
            Long outcome = redis.execute(PROMOTE_SCRIPT, List.of(key(userId), promotedKey(userId)), args.toArray());
            if (outcome != null && outcome == 1) {
                metrics.counterPromoted();
                return true;
            }
        } catch (DataAccessException e) {
            // The batches in flight did not let go in time: this read answers as it is; a later one tries again.
            log.debug("could not promote {}: {}", userId, e.toString());
        }
        return false;
    }

    /**
     * The person's counts, with their hash rebuilt (exactly) from the inbox up to the global
     * horizon, and marked with {@code version} (when known) if nothing unread lies above it.
     */
    private Unread rebuilt(long userId, @Nullable String version) {
        for (int attempt = 0; attempt < 3; attempt++) {
            String generation = redis.execute(GENERATION_SCRIPT, List.of(key(userId)), token(), Long.toString(ttlSeconds));
            long upTo = horizon.known();
            InboxTable.Split groups = inbox.unreadGroupsSplitAt(userId, upTo);
            long trimmed = inbox.trimmedUnread(userId);
            metrics.counterRebuilt();
            String mark = version != null && groups.above().isEmpty() ? version : "";
            Long outcome = redis.execute(REBUILD_SCRIPT, List.of(key(userId)),
                    rebuildArgs(generation, upTo, mark, groups.upTo(), trimmed));
            if (outcome == null || outcome == 1) {
                List<UnreadDelta> all = new ArrayList<>(groups.upTo());
                all.addAll(groups.above());
                return summarise(all, trimmed);
            }
            if (outcome == 2) {
                // A concurrent rebuild won: read what it wrote.
                Map<Object, Object> hash = redis.opsForHash().entries(key(userId));
                if (isBuilt(hash) && PROMOTED.equals(hash.get("_h"))) {
                    return promoted(userId, version);
                }
                if (isBuilt(hash)) {
                    return withAbove(Map.of(userId, hash), Map.of()).get(userId);
                }
            }
            // 0: a delta landed while we counted, count again.
        }
        // Deltas keep landing while we count: answer from the inbox, uncached.
        return summarise(inbox.unreadGroups(userId), inbox.trimmedUnread(userId));
    }

    private Object[] rebuildArgs(String generation, long upTo, String mark, List<UnreadDelta> groups, long trimmed) {
        Map<String, Long> fields = new LinkedHashMap<>();
        groups.forEach(group -> addTo(fields, group));
        if (trimmed > 0) {
            fields.put("x", trimmed);
        }
        List<String> args = new ArrayList<>(4 + fields.size() * 2);
        args.add(generation);
        args.add(Long.toString(ttlSeconds));
        args.add(Long.toString(upTo));
        args.add(mark);
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
        return field(delta.sourceId(), delta.media());
    }

    private static String field(long sourceId, MediaType media) {
        return "s" + sourceId + ":" + media.bit();
    }

    static Unread summarise(List<UnreadDelta> groups, long trimmed) {
        UnreadTally tally = new UnreadTally();
        groups.forEach(group -> tally.add(group.sourceId(), group.media(), group.change()));
        return tally.build(trimmed);
    }

    /** A built hash's counts plus {@code above}, the counted entries above its horizon. */
    private static Unread parse(Map<Object, Object> hash, List<UnreadDelta> above) {
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
        above.forEach(group -> tally.add(group.sourceId(), group.media(), group.change()));
        return tally.build(trimmed);
    }

    private static String token() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }
}
