package dev.tributary.pubsub;

import dev.tributary.storage.DuplicateIndexKeyException;
import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IndexKey;
import dev.tributary.storage.IndexReader;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/** People's accounts as stored ({@code user} entities): kept, found by id, username or feed token, changed. */
@Service
public class People {

    private final EntityStore store;
    private final IndexReader indexes;

    People(EntityStore store, IndexReader indexes) {
        this.store = store;
        this.indexes = indexes;
    }

    /**
     * Stores a new account; the caller has checked the username's form and hashed the password.
     * @throws UsernameTakenException if someone has that username (the index decides a race)
     */
    public Stored<Account> add(Account account) {
        try {
            return Stored.of(store.insert(PeopleKinds.ACCOUNT, account));
        } catch (DuplicateIndexKeyException e) {
            if (e.index().equals(PeopleKinds.USERNAMES.name())) {
                throw new UsernameTakenException(account.username());
            }
            throw e;
        }
    }

    public Optional<Stored<Account>> find(long id) {
        return store.find(PeopleKinds.ACCOUNT, id).map(Stored::of);
    }

    /** The accounts with these ids, in the order asked, skipping missing ones. */
    public List<Stored<Account>> getAll(Collection<Long> ids) {
        return store.getAll(PeopleKinds.ACCOUNT, ids).stream().map(Stored::<Account>of).toList();
    }

    public Optional<Stored<Account>> findByUsername(@Nullable String username) {
        if (username == null || username.isEmpty() || username.length() > PeopleKinds.MAX_USERNAME_LENGTH) {
            return Optional.empty();
        }
        return indexes.lookupUnique(PeopleKinds.USERNAMES, IndexKey.of(username)).map(Stored::of);
    }

    /** The account whose stored feed token is {@code token} (found through the index, then compared whole). */
    public Optional<Stored<Account>> findByFeedToken(@Nullable String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        return indexes.lookupUnique(PeopleKinds.FEED_TOKENS, IndexKey.of(token)).map(Stored::<Account>of)
                .filter(account -> account.body().feedToken().equals(token));
    }

    /** Stores a new password hash (the caller hashed it). */
    public Stored<Account> changePasswordHash(long id, String passwordHash) {
        Account account = store.get(PeopleKinds.ACCOUNT, id).body();
        return Stored.of(store.put(PeopleKinds.ACCOUNT, id, account.withPasswordHash(passwordHash)));
    }

    /** Stores a new feed token (as the caller gives it: a hash): the old private feed url stops working at once. */
    public Stored<Account> changeFeedToken(long id, String feedToken) {
        Account account = store.get(PeopleKinds.ACCOUNT, id).body();
        return Stored.of(store.put(PeopleKinds.ACCOUNT, id, account.withFeedToken(feedToken)));
    }
}
