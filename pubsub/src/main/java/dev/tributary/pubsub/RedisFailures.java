package dev.tributary.pubsub;

import io.lettuce.core.RedisCommandExecutionException;
import java.util.List;

/**
 * Tells the store failures apart: Redis's from MySQL's (a cache that falls back to MySQL when
 * Redis fails must not do so when MySQL itself failed, e.g. its pool exhausted: the fall-back
 * would wait for the same pool a second time), and a Redis that refuses commands for now from a
 * command that is wrong.
 */
public final class RedisFailures {

    /**
     * Redis's error replies that mean "not now" rather than "never": out of memory under
     * {@code noeviction}, writes stopped after a failed save, a replica after a failover, the
     * dataset loading, a script running too long, a cluster without a slot's master or mid-move.
     */
    private static final List<String> NOT_NOW = List.of("OOM ", "MISCONF ", "READONLY ", "LOADING ", "BUSY ", "MASTERDOWN ",
            "CLUSTERDOWN ", "TRYAGAIN ", "NOREPLICAS ");
    /** A chain of causes may loop. */
    private static final int MAX_DEPTH = 32;

    private RedisFailures() {
    }

    /**
     * Whether Redis is behind {@code failure}: an exception of Spring Data Redis or of its
     * Lettuce client, found through the causes (a Redis command that timed out is translated to
     * Spring's {@code QueryTimeoutException}, which a JDBC timeout is too; its cause tells them apart).
     */
    public static boolean isRedis(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
            String name = cause.getClass().getName();
            if (name.startsWith("org.springframework.data.redis.") || name.startsWith("io.lettuce.core.")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Rethrows {@code failure} unless Redis is behind it ({@link #isRedis}): for a fall-back taken
     * only when Redis failed. When MySQL itself failed (its pool exhausted), a fall-back that reads
     * MySQL would wait for the same pool a second time.
     */
    public static void rethrowUnlessRedis(RuntimeException failure) {
        if (!isRedis(failure)) {
            throw failure;
        }
    }

    /**
     * Whether Redis answered {@code failure}'s command with an error that passes with time (see
     * {@link #NOT_NOW}): Spring translates every error reply to {@code RedisSystemException}, the
     * type of a bug, so without this a Redis out of memory would answer 500 instead of 503.
     */
    public static boolean isRefusedForNow(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
            if (cause instanceof RedisCommandExecutionException refused && refused.getMessage() != null) {
                String reply = refused.getMessage();
                // Redis 6 wraps a script's refused command: "ERR Error running script … -OOM command not allowed …".
                return NOT_NOW.stream().anyMatch(code -> reply.startsWith(code) || reply.contains("-" + code));
            }
        }
        return false;
    }
}
