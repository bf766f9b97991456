package dev.tributary.api.security;

import dev.tributary.api.web.Hashes;
import dev.tributary.api.account.Usernames;
import dev.tributary.api.web.ApiSettings;
import dev.tributary.api.web.ClientAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Counts password checks per (account, client address) and per client address in Redis, so every
 * node sees the same counts; an account's failures across all addresses are counted too, but only
 * to slow guessing down, never to lock the person out. A wrong password from one address must not
 * refuse the right one from another: five guesses from anywhere used to lock a person out
 * everywhere for the lock-out's length, a lock-out anyone could set off by knowing a username.
 *
 * <p>Each (account, address) and address key is a hash of two counts: {@code failed} checks and
 * checks in flight ({@code checking}). An attempt is counted as in flight before its password is
 * checked, in the same atomic step that compares both counts with the limit, so parallel guesses
 * cannot all pass a check made before any of them was counted; when the check ends, a wrong
 * password becomes a failure and a right one clears the (account, address) failures. Past the
 * limit of failures, further attempts of that account from that address (or, past the address's
 * limit, of any account from it) are refused until the lock-out ends (counted from the latest
 * attempt), whether or not the password would be right. While failures and checks in flight
 * together reach the limit, an attempt is refused for a moment instead: that is a crowd of
 * sign-ins at once (an app opening many connections with the right password), not a lock-out, and
 * is told apart.
 *
 * <p>Once an account has failed {@code login-failures-per-account} times across all addresses
 * within the lock-out, it is being guessed at from many places: each address that has itself
 * failed for it then gets no further attempt until its failures expire (one guess per address per
 * lock-out instead of several), while an address that has not failed for it, such as the person's
 * own, signs in as always.
 */
@Component
class LoginThrottle {

    /** Why an attempt was not let through to the password check, and when to come back. */
    record Refusal(boolean busy, Duration retryAfter) {
    }

    /** How long a refusal for checks in flight asks the client to wait: a password check takes well under a second. */
    static final Duration BUSY_RETRY = Duration.ofSeconds(1);

    /**
     * Counts an attempt as in flight unless the failures (locked out: {1, ms left}) or the failures
     * and checks in flight together (busy: {2, 0}) are at the limit (ARGV[1]); (re)sets the expiry
     * (ARGV[2]). Returns {0, 0} when counted. One key per call, so it runs on Redis Cluster as well.
     */
    @SuppressWarnings("rawtypes")
    private static final RedisScript<List> ATTEMPT = RedisScript.of("""
            local failed = tonumber(redis.call('HGET', KEYS[1], 'failed') or '0')
            local checking = tonumber(redis.call('HGET', KEYS[1], 'checking') or '0')
            local limit = tonumber(ARGV[1])
            if failed >= limit then
              local left = redis.call('PTTL', KEYS[1])
              if left > 0 then return {1, left} end
              return {1, tonumber(ARGV[2])}
            end
            if failed + checking >= limit then return {2, 0} end
            redis.call('HINCRBY', KEYS[1], 'checking', 1)
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return {0, 0}
            """, List.class);

    /**
     * Ends a check counted in flight (never below zero: the key may have expired meanwhile);
     * ARGV[1] 'failed' counts a failure (and resets the expiry to ARGV[2]), 'cleared' forgets the
     * failures, anything else only ends the check.
     */
    private static final RedisScript<Long> FINISH = RedisScript.of("""
            if tonumber(redis.call('HGET', KEYS[1], 'checking') or '0') > 0 then
              redis.call('HINCRBY', KEYS[1], 'checking', -1)
            end
            if ARGV[1] == 'failed' then
              redis.call('HINCRBY', KEYS[1], 'failed', 1)
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
            elseif ARGV[1] == 'cleared' then
              redis.call('HDEL', KEYS[1], 'failed')
            end
            return 0
            """, Long.class);

    // The keys were counters before checks in flight were told apart; new names, so a node
    // deployed beside an older one never reads a counter as a hash.

    /** Client addresses are the server's own reading of the connection, but a proxy header could stretch them. */
    private static final int MAX_ADDRESS_LENGTH = 64;

    private final StringRedisTemplate redis;
    private final ApiSettings settings;

    LoginThrottle(StringRedisTemplate redis, ApiSettings settings) {
        this.redis = redis;
        this.settings = settings;
    }

    /**
     * Counts one attempt of {@code username} from {@code address} as in flight; empty if it may go
     * on to the password check (then exactly one of {@link #succeeded}, {@link #failed} or
     * {@link #abandoned} must follow), else why not and how long until another attempt is
     * considered (nothing was counted).
     */
    Optional<Refusal> attempt(String username, String address) {
        String pair = pairKey(username, address);
        Optional<Refusal> fromHere = count(pair, pairLimit(username));
        if (fromHere.isPresent()) {
            return fromHere;
        }
        Optional<Refusal> client = count(addressKey(address), settings.loginFailuresPerAddress());
        if (client.isPresent()) {
            finish(pair, "ended");
        }
        return client;
    }

    /**
     * A right password clears the failures of the account from this address and ends the check at
     * the address (whose failures are kept: one address may try many accounts). The account's
     * failures elsewhere stay: they are someone else's guesses.
     */
    void succeeded(String username, String address) {
        finish(pairKey(username, address), "cleared");
        finish(addressKey(address), "ended");
    }

    /** A wrong password: a failure of the account from the address, of the address, and of the account everywhere. */
    void failed(String username, String address) {
        finish(pairKey(username, address), "failed");
        finish(addressKey(address), "failed");
        finish(accountKey(username), "failed");
    }

    /** The check could not be made (the database failed): it ends counting nothing. */
    void abandoned(String username, String address) {
        finish(pairKey(username, address), "ended");
        finish(addressKey(address), "ended");
    }

    /**
     * How many failures the account may have from one address: the full allowance, or one (none
     * more for an address that has failed already) while the account is being guessed at from
     * many addresses.
     */
    private int pairLimit(String username) {
        Object failed = redis.opsForHash().get(accountKey(username), "failed");
        long failures = failed == null ? 0 : Long.parseLong(failed.toString());
        return failures >= settings.loginFailuresPerAccount() ? 1 : settings.loginFailuresPerAccount();
    }

    private void finish(String key, String outcome) {
        redis.execute(FINISH, List.of(key), outcome, Long.toString(settings.loginLockout().toMillis()));
    }

    private Optional<Refusal> count(String key, int limit) {
        List<?> result = redis.execute(ATTEMPT, List.of(key), Integer.toString(limit),
                Long.toString(settings.loginLockout().toMillis()));
        long state = result == null || result.isEmpty() ? 0 : ((Number) result.get(0)).longValue();
        if (state == 1) {
            return Optional.of(new Refusal(false, Duration.ofMillis(((Number) result.get(1)).longValue())));
        }
        return state == 2 ? Optional.of(new Refusal(true, BUSY_RETRY)) : Optional.empty();
    }

    /** The account's failures from every address: they only slow guessing down ({@link #pairLimit}). */
    static String accountKey(String username) {
        return "login:throttle:user:" + account(username);
    }

    /** The account's attempts from one client address: the count that locks out. */
    static String pairKey(String username, String address) {
        return "login:throttle:pair:" + account(username) + ":" + client(address);
    }

    /** Per client address as the rate limits count it (an IPv6 /64 is one client). */
    static String addressKey(String address) {
        return "login:throttle:addr:" + client(address);
    }

    /**
     * A valid username is its own key part; anything else (no account can have it) is hashed, so a
     * megabyte of "username" costs one fixed-size key.
     */
    private static String account(String username) {
        return Usernames.valid(username) ? username : "#" + Hashes.sha256Hex(username);
    }

    private static String client(String address) {
        String client = ClientAddress.of(address);
        return client.length() <= MAX_ADDRESS_LENGTH ? client : "#" + Hashes.sha256Hex(client);
    }
}
