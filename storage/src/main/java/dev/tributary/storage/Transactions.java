package dev.tributary.storage;

import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs storage writes in READ COMMITTED transactions, joining the caller's if there is one
 * (pubsub stores items and its fan-out task together). READ COMMITTED because InnoDB's gap
 * locks under REPEATABLE READ make concurrent index maintenance deadlock for no benefit here.
 * A deadlock victim is retried, but only when this class owns the transaction.
 */
@Component
final class Transactions {

    private static final Logger log = LoggerFactory.getLogger(Transactions.class);
    private static final int ATTEMPTS = 5;

    private final TransactionTemplate template;

    Transactions(PlatformTransactionManager manager) {
        this.template = new TransactionTemplate(manager);
        template.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRED);
    }

    <R> R write(String what, Supplier<R> work) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            return work.get();
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return template.execute(status -> work.get());
            } catch (PessimisticLockingFailureException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                log.debug("{}: lock conflict, retrying (attempt {})", what, attempt, e);
            }
        }
    }

    void run(String what, Runnable work) {
        write(what, () -> {
            work.run();
            return null;
        });
    }
}
