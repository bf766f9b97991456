package dev.tributary.api.security;

import dev.tributary.api.account.Usernames;
import dev.tributary.api.web.ApiSettings;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Counts password checks per account and per client address in Redis, so every node sees the
 * same counts. An attempt is counted before its password is checked, in the same atomic step
 * that compares the count with the limit, so parallel guesses cannot all pass a check made
 * before any of them was counted; a right password then takes its attempt back. Past a limit,
 * further attempts are refused until the lock-out ends (counted from the latest attempt),
 * whether or not the password would be right.
 */
@Component
class LoginThrottle {

    /**
     * Counts an attempt unless the key is at its limit (ARGV[1]); (re)sets the expiry (ARGV[2]).
     * Returns 0 when counted, else the milliseconds left of the lock-out. One key per call, so it
     * runs on Redis Cluster as well.
     */
    private static final RedisScript<Long> ATTEMPT = RedisScript.of("""
            local n = tonumber(redis.call('GET', KEYS[1]) or '0')
            if n >= tonumber(ARGV[1]) then
              local left = redis.call('PTTL', KEYS[1])
              if left > 0 then return left end
              return tonumber(ARGV[2])
            end
            redis.call('INCR', KEYS[1])
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return 0
            """, Long.class);

    /** Takes a counted attempt back; never below zero (the key may have expired meanwhile). */
    private static final RedisScript<Long> RELEASE = RedisScript.of("""
            if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end
            return 0
            """, Long.class);

    /** Client addresses are the server's own reading of the connection, but a proxy header could stretch them. */
    private static final int MAX_ADDRESS_LENGTH = 64;

    private final StringRedisTemplate redis;
    private final ApiSettings settings;

    LoginThrottle(StringRedisTemplate redis, ApiSettings settings) {
        this.redis = redis;
        this.settings = settings;
    }

    /**
     * Counts one attempt of {@code username} from {@code address}; empty if it may go on to the
     * password check, else how long until another attempt is considered (nothing was counted).
     */
    Optional<Duration> attempt(String username, String address) {
        Optional<Duration> account = count(accountKey(username), settings.loginFailuresPerAccount());
        if (account.isPresent()) {
            return account;
        }
        Optional<Duration> client = count(addressKey(address), settings.loginFailuresPerAddress());
        if (client.isPresent()) {
            release(accountKey(username));
        }
        return client;
    }

    /**
     * A right password clears the account's count and takes its attempt back from the address
     * (whose count is kept: one address may try many accounts).
     */
    void succeeded(String username, String address) {
        redis.delete(accountKey(username));
        release(addressKey(address));
    }

    private void release(String key) {
        redis.execute(RELEASE, List.of(key));
    }

    private Optional<Duration> count(String key, int limit) {
        Long left = redis.execute(ATTEMPT, List.of(key), Integer.toString(limit),
                Long.toString(settings.loginLockout().toMillis()));
        return left == null || left <= 0 ? Optional.empty() : Optional.of(Duration.ofMillis(left));
    }

    /**
     * A valid username is its own key; anything else (no account can have it) is hashed, so a
     * megabyte of "username" costs one fixed-size key.
     */
    static String accountKey(String username) {
        return "login:fail:user:" + (Usernames.valid(username) ? username : "#" + Hashes.sha256Hex(username));
    }

    static String addressKey(String address) {
        return "login:fail:addr:" + (address.length() <= MAX_ADDRESS_LENGTH ? address : "#" + Hashes.sha256Hex(address));
    }
}
