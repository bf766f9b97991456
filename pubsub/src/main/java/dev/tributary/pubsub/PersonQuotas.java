package dev.tributary.pubsub;

import java.util.function.LongSupplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The one place count limits are checked: inside the transaction that stores a new thing, the
 * person's row of {@code person_locks} is locked first, so concurrent creations by one person
 * queue there and each counts what the one before it committed. A count taken without the lock
 * would let ten parallel requests each see 4,999 and all insert.
 */
@Service
public class PersonQuotas {

    private final JdbcClient jdbc;
    private final LimitSettings limits;

    PersonQuotas(JdbcClient jdbc, LimitSettings limits) {
        this.jdbc = jdbc;
        this.limits = limits;
    }

    /**
     * Locks the person's quota row and refuses if they already hold their limit of {@code quota}.
     * Must run inside the transaction that then inserts, so the lock covers the insert.
     *
     * @param held counts what the person holds now (run after the lock is taken)
     * @throws QuotaExceededException if {@code held} is at the limit already
     */
    public void claim(long userId, Quota quota, LongSupplier held) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a quota is claimed inside the inserting transaction");
        }
        lock(userId);
        int limit = limits.of(quota);
        if (held.getAsLong() >= limit) {
            throw new QuotaExceededException(quota, limit);
        }
    }

    /**
     * {@link #claim} for {@code wanted} new things at once: locks the person's quota row and
     * returns how many of them fit under the limit (0 to {@code wanted}); the caller stores only
     * that many, inside this transaction.
     */
    public int claimUpTo(long userId, Quota quota, LongSupplier held, int wanted) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("a quota is claimed inside the inserting transaction");
        }
        lock(userId);
        long room = limits.of(quota) - held.getAsLong();
        return (int) Math.max(0, Math.min(wanted, room));
    }

    public int limit(Quota quota) {
        return limits.of(quota);
    }

    /**
     * An upsert takes the row's exclusive lock whether it inserts or finds it: an INSERT IGNORE
     * then SELECT FOR UPDATE would take a shared lock first, and two such transactions deadlock
     * upgrading it.
     */
    private void lock(long userId) {
        jdbc.sql("INSERT INTO person_locks (user_id, locks) VALUES (?, 1) ON DUPLICATE KEY UPDATE locks = locks + 1")
                .param(userId).update();
    }
}
