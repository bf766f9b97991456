package dev.tributary.api.account;

import dev.tributary.pubsub.Account;

/** An account with its id (the person's id everywhere), as {@link Accounts} hands it out. */
public record StoredAccount(long id, Account body) {
}
