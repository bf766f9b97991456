package dev.tributary.pubsub;

import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * READ COMMITTED transactions for pub/sub writes, joining the caller's if there is one, and
 * retrying a deadlock victim when this class owns the transaction (every write here is
 * idempotent or re-reads its state, so a retry is safe).
 */
@Component
class PubsubTransactions {

    private static final Logger log = LoggerFactory.getLogger(PubsubTransactions.class);
    private static final int ATTEMPTS = 5;

    private final TransactionTemplate template;

    PubsubTransactions(PlatformTransactionManager manager) {
        this.template = new TransactionTemplate(manager);
        template.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        template.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRED);
    }

    <R> R write(String what, Function<TransactionStatus, R> work) {
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

    void run(String what, Runnable work) {
        write(what, status -> {
            work.run();
            return null;
        });
    }
}
