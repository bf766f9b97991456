package dev.tributary.api.security;

import dev.tributary.api.web.ApiSettings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Counts failed password checks per account and per client address in Redis, so every node
 * sees the same counts; past a limit, further attempts are refused until the lock-out ends
 * (counted from the latest failure), whether or not the password would be right.
 */
@Component
class LoginThrottle {

    /** INCR and (re)set the expiry in one round trip; returns the new count. */
    private static final RedisScript<Long> FAIL = RedisScript.of(
            "local n = redis.call('INCR', KEYS[1]); redis.call('PEXPIRE', KEYS[1], ARGV[1]); return n", Long.class);

    private final StringRedisTemplate redis;
    private final ApiSettings settings;

    LoginThrottle(StringRedisTemplate redis, ApiSettings settings) {
        this.redis = redis;
        this.settings = settings;
    }

    /** How long until {@code username} may try again from {@code address}; empty if now. */
    Optional<Duration> lockedFor(String username, String address) {
        Duration account = wait(accountKey(username), settings.loginFailuresPerAccount());
        Duration client = wait(addressKey(address), settings.loginFailuresPerAddress());
        Duration longest = account.compareTo(client) >= 0 ? account : client;
        return longest.isZero() ? Optional.empty() : Optional.of(longest);
    }

    void failed(String username, String address) {
        String ttl = Long.toString(settings.loginLockout().toMillis());
        redis.execute(FAIL, List.of(accountKey(username)), ttl);
        redis.execute(FAIL, List.of(addressKey(address)), ttl);
    }

    /** A right password clears the account's count (not the address's: one address may try many accounts). */
    void succeeded(String username) {
        redis.delete(accountKey(username));
    }

    private Duration wait(String key, int limit) {
        String count = redis.opsForValue().get(key);
        if (count == null || Long.parseLong(count) < limit) {
            return Duration.ZERO;
        }
        Long millis = redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);
        return millis == null || millis <= 0 ? Duration.ZERO : Duration.ofMillis(millis);
    }

    private static String accountKey(String username) {
        return "login:fail:user:" + username;
    }

    private static String addressKey(String address) {
        return "login:fail:addr:" + address;
    }
}
