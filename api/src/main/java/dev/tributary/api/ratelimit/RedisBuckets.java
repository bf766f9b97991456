package dev.tributary.api.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Fixed-window buckets in Redis: one script call per request counts it and starts the window on
 * the bucket's first request, so a bucket costs one key that expires with its window. On a single
 * Redis the same call reads the keys a handler asked to have read along ({@link ReadAlong}).
 */
@Component
class RedisBuckets implements Buckets {

    /**
     * INCR, PEXPIRE on the first request (or on a key that somehow lost its expiry), and the
     * time left; returns {count, milliseconds to reset, then the values of KEYS[2..] (MGET: nil
     * for a missing key or one that holds no string)}.
     */
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> TAKE = RedisScript.of("""
            local n = redis.call('INCR', KEYS[1])
            local ttl = redis.call('PTTL', KEYS[1])
            if n == 1 or ttl < 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
              ttl = tonumber(ARGV[1])
            end
            local answer = {n, ttl}
            if #KEYS > 1 then
              local values = redis.call('MGET', unpack(KEYS, 2))
              for i = 1, #KEYS - 1 do
                answer[i + 2] = values[i]
              end
            end
            return answer
            """, List.class);

    private final StringRedisTemplate redis;
    /** A cluster's script reaches one slot only, so there nothing is read along. */
    private final boolean readsAlong;

    RedisBuckets(StringRedisTemplate redis) {
        this.redis = redis;
        this.readsAlong = !(redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware());
    }

    @Override
    public Bucket take(String key, int limit, Duration window) {
        return take(key, limit, window, List.of()).bucket();
    }

    @Override
    public Taken take(String key, int limit, Duration window, List<String> readKeys) {
        List<String> along = readsAlong ? readKeys : List.of();
        List<String> keys = new ArrayList<>(1 + along.size());
        keys.add(key);
        keys.addAll(along);
        List<?> result = redis.execute(TAKE, keys, Long.toString(window.toMillis()));
        if (result == null || result.size() != 2 + along.size()) {
            throw new IllegalStateException("unexpected rate-limit script result " + result);
        }
        Bucket bucket = new Bucket(((Number) result.get(0)).longValue(), limit, ((Number) result.get(1)).longValue());
        if (along.isEmpty()) {
            return new Taken(bucket, readKeys.isEmpty() ? List.of() : null);
        }
        List<String> values = new ArrayList<>(along.size());
        for (Object value : result.subList(2, result.size())) {
            values.add((String) value);
        }
        return new Taken(bucket, values);
    }
}
