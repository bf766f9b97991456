package dev.tributary.api.account;

import dev.tributary.api.web.Hashes;
import dev.tributary.pubsub.Account;
import dev.tributary.pubsub.People;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.UsernameTakenException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;

/**
 * People's accounts: registration, look-up by id, username and feed token, and feed-token rotation.
 * The feed token is kept only as {@value #HASHED} and its SHA-256 (issue 52: whoever reads a backup
 * must not read everyone's home timeline); the secret itself is shown once, when it is made. A
 * token kept in clear before that is hashed the first time it is used or its owner reads /me.
 */
@Service
public class Accounts {

    static final String HASHED = "sha256:";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final People people;
    private final PasswordEncoder passwords;
    private final Clock clock;

    Accounts(People people, PasswordEncoder passwords) {
        this.people = people;
        this.passwords = passwords;
        this.clock = Clock.systemUTC();
    }

    /**
     * Creates an account; the caller has validated the username's form.
     * @throws UsernameTakenException if someone has that username (the index decides a race)
     */
    public StoredAccount register(String username, String password, @Nullable String email) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        // Nobody is shown this one: the person makes a private feed url when they want one.
        Account account = new Account(username, passwords.encode(password), email, hashed(newFeedToken()), now);
        return stored(people.add(account));
    }

    public Optional<StoredAccount> find(long id) {
        return people.find(id).map(Accounts::stored);
    }

    /** The accounts with these ids, in the order asked, skipping missing ones. */
    public List<StoredAccount> getAll(Collection<Long> ids) {
        return people.getAll(ids).stream().map(Accounts::stored).toList();
    }

    public Optional<StoredAccount> findByUsername(String username) {
        if (!Usernames.valid(username)) {
            return Optional.empty();
        }
        return people.findByUsername(username).map(Accounts::stored);
    }

    /**
     * The account whose private feed url carries {@code token}. A stored hash is never accepted as
     * the token itself (our tokens never hold a ':'), so reading the database gives no feed.
     */
    public Optional<StoredAccount> findByFeedToken(String token) {
        if (token == null || token.isEmpty() || token.length() > 100 || token.startsWith(HASHED)) {
            return Optional.empty();
        }
        Optional<Stored<Account>> found = people.findByFeedToken(hashed(token));
        if (found.isPresent()) {
            return found.map(Accounts::stored);
        }
        // A token stored in clear before hashing: found as it was, then stored as its hash (the url keeps working).
        return people.findByFeedToken(token).filter(account -> !isHashed(account.body().feedToken()))
                .map(account -> stored(people.changeFeedToken(account.id(), hashed(token))));
    }

    /** The account, its feed token stored as a hash if it was still in clear (the same url keeps working). */
    public StoredAccount hashFeedTokenIfClear(StoredAccount account) {
        String stored = account.body().feedToken();
        return isHashed(stored) ? account : stored(people.changeFeedToken(account.id(), hashed(stored)));
    }

    /** Whether {@code password} is the account's; constant-time in the hash comparison. */
    public boolean passwordMatches(Account account, String password) {
        return password != null && passwords.matches(password, account.passwordHash());
    }

    /** Sets a new password; the caller has checked the old one and the new one's form. */
    public StoredAccount changePassword(long id, String password) {
        return stored(people.changePasswordHash(id, passwords.encode(password)));
    }

    /**
     * Gives the account a new feed token: the old private feed url stops working at once. The
     * token is in the answer only: what is stored is its hash.
     */
    public NewFeedToken rotateFeedToken(long id) {
        String token = newFeedToken();
        return new NewFeedToken(stored(people.changeFeedToken(id, hashed(token))), token);
    }

    /** An account just given a new feed token, and the token (nowhere else to be read again). */
    public record NewFeedToken(StoredAccount account, String token) {
    }

    static String hashed(String token) {
        return HASHED + Hashes.sha256Hex(token);
    }

    private static boolean isHashed(String stored) {
        return stored.startsWith(HASHED);
    }

    private static StoredAccount stored(Stored<Account> account) {
        return new StoredAccount(account.id(), account.body());
    }

    private static String newFeedToken() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
