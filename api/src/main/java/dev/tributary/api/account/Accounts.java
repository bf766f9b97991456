package dev.tributary.api.account;

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

/** People's accounts: registration, look-up by id, username and feed token, and feed-token rotation. */
@Service
public class Accounts {

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
        Account account = new Account(username, passwords.encode(password), email, newFeedToken(), now);
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

    /** The account whose private feed url carries {@code token}. */
    public Optional<StoredAccount> findByFeedToken(String token) {
        if (token == null || token.isEmpty() || token.length() > 100) {
            return Optional.empty();
        }
        return people.findByFeedToken(token).map(Accounts::stored);
    }

    /** Whether {@code password} is the account's; constant-time in the hash comparison. */
    public boolean passwordMatches(Account account, String password) {
        return password != null && passwords.matches(password, account.passwordHash());
    }

    /** Sets a new password; the caller has checked the old one and the new one's form. */
    public StoredAccount changePassword(long id, String password) {
        return stored(people.changePasswordHash(id, passwords.encode(password)));
    }

    /** Gives the account a new feed token: the old private feed url stops working at once. */
    public StoredAccount rotateFeedToken(long id) {
        return stored(people.changeFeedToken(id, newFeedToken()));
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
