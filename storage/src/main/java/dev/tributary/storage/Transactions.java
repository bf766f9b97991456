package dev.tributary.storage;

import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one way every module writes: READ COMMITTED transactions that join the caller's, retry a
 * deadlock victim when they own the transaction, and run work after commit or after a rollback.
 */
@Component
public final class Transactions {

    private static final Logger log = LoggerFactory.getLogger(Transactions.class);
    private static final int ATTEMPTS = 5;

    private final TransactionTemplate template;

    public Transactions(PlatformTransactionManager manager) {
        this.template = new TransactionTemplate(manager);
        // InnoDB's gap locks under REPEATABLE READ make concurrent index maintenance and inbox
        // writes deadlock for no benefit here: every write re-reads what it changes under locks.
        template.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRED);
    }

    /**
     * Runs {@code work} in a transaction (the caller's, if there is one) and returns its result.
     * A deadlock victim is retried, but only when this call owns the transaction: the work must
     * be idempotent or re-read its state, which every write in Tributary does.
     */
    public <R> R write(String what, Function<TransactionStatus, R> work) {
        boolean joined = TransactionSynchronizationManager.isActualTransactionActive();
        for (int attempt = 1; ; attempt++) {
            try {
                return template.execute(work::apply);
            } catch (PessimisticLockingFailureException e) {
                if (joined || attempt == ATTEMPTS) {
                    throw e;
                }
                log.debug("{}: lock conflict, retrying (attempt {})", what, attempt, e);
            }
        }
    }

    /** {@link #write(String, Function)} for work that needs no savepoints. */
    public <R> R write(String what, Supplier<R> work) {
        return write(what, status -> work.get());
    }

    /** {@link #write(String, Supplier)} without a result. */
    public void run(String what, Runnable work) {
        write(what, status -> {
            work.run();
            return null;
        });
    }

    /** Runs {@code action} once the current transaction commits; at once outside a transaction. */
    public void afterCommit(Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    action.run();
                }
            });
        } else {
            action.run();
        }
    }

    /** Runs {@code action} if the current transaction rolls back; never outside a transaction. */
    public void afterRollback(Runnable action) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    if (status != STATUS_COMMITTED) {
                        action.run();
                    }
                }
            });
        }
    }
}
