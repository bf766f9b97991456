package dev.tributary.pubsub;

/**
 * Tells a failure of Redis from a failure of MySQL among the store exceptions a block can throw.
 * A cache that falls back to MySQL when Redis fails must not do so when MySQL itself failed
 * (e.g. its pool was exhausted): the fallback would wait for the same pool a second time.
 */
public final class RedisFailures {

    private RedisFailures() {
    }

    /**
     * Whether Redis is behind {@code failure}: an exception of Spring Data Redis or of its
     * Lettuce client, found through the causes (a Redis command that timed out is translated to
     * Spring's {@code QueryTimeoutException}, which a JDBC timeout is too; its cause tells them apart).
     */
    public static boolean isRedis(Throwable failure) {
        Throwable cause = failure;
        // Bounded: a chain of causes may loop.
        for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
            String name = cause.getClass().getName();
            if (name.startsWith("org.springframework.data.redis.") || name.startsWith("io.lettuce.core.")) {
                return true;
            }
        }
        return false;
    }
}
