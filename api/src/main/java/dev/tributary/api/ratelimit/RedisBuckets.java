package dev.tributary.api.ratelimit;

import java.time.Duration;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Fixed-window buckets in Redis: one script call per request counts it and starts the window on
 * the bucket's first request, so a bucket costs one key that expires with its window.
 */
@Component
class RedisBuckets implements Buckets {

    /**
     * INCR, PEXPIRE on the first request (or on a key that somehow lost its expiry), and the
     * time left; returns {count, milliseconds to reset}.
     */
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> TAKE = RedisScript.of("""
            local n = redis.call('INCR', KEYS[1])
            local ttl = redis.call('PTTL', KEYS[1])
            if n == 1 or ttl < 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
              ttl = tonumber(ARGV[1])
            end
            return {n, ttl}
            """, List.class);

    private final StringRedisTemplate redis;

    RedisBuckets(StringRedisTemplate redis) {
        this.redis = redis;
    }

    @Override
    public Bucket take(String key, int limit, Duration window) {
        List<?> result = redis.execute(TAKE, List.of(key), Long.toString(window.toMillis()));
        if (result == null || result.size() != 2) {
            throw new IllegalStateException("unexpected rate-limit script result " + result);
        }
        return new Bucket(((Number) result.get(0)).longValue(), limit, ((Number) result.get(1)).longValue());
    }
}
