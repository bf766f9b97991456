package dev.tributary.storage.testing;

import java.time.Duration;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Whether some transaction waits on a row lock, for tests that hold a lock open and must see a
 * racing writer queue behind it. InnoDB refreshes {@code information_schema.INNODB_TRX} only when
 * it has not been read for 0.1 s, so a condition polled faster would read one stale snapshot for
 * ever: this one looks at most every {@link #REFRESH}.
 */
public final class LockWaits implements Await.Condition {

    static final Duration REFRESH = Duration.ofMillis(250);

    private final JdbcClient jdbc;
    private long lastLook;

    private LockWaits(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A condition that holds once a transaction is seen waiting on a lock. */
    public static LockWaits seenBy(JdbcClient jdbc) {
        return new LockWaits(jdbc);
    }

    @Override
    public boolean holds() {
        long now = System.nanoTime();
        if (lastLook != 0 && now - lastLook < REFRESH.toNanos()) {
            return false;
        }
        lastLook = now;
        return jdbc.sql("SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")
                .query(Long.class).single() > 0;
    }
}
