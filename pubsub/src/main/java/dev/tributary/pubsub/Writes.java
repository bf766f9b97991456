package dev.tributary.pubsub;

import dev.tributary.storage.Transactions;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * How the crawler and the api write their own tables: storage's one kind of transaction (READ
 * COMMITTED, joining the caller's, retrying a deadlock victim it owns), so that their writes and
 * pub/sub's compose in one transaction.
 */
@Component
public final class Writes {

    private final Transactions tx;

    Writes(Transactions tx) {
        this.tx = tx;
    }

    /**
     * Runs {@code work} in a transaction (the caller's, if there is one) and returns its result; a
     * deadlock victim is retried when this call owns the transaction, so {@code work} must be idempotent.
     */
    public <R> R write(String what, Supplier<R> work) {
        return tx.write(what, work);
    }

    /** {@link #write} without a result. */
    public void run(String what, Runnable work) {
        tx.run(what, work);
    }

    /** Runs {@code action} once the current transaction commits; at once outside a transaction. */
    public void afterCommit(Runnable action) {
        tx.afterCommit(action);
    }
}
