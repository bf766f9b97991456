package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

/** Redis's failures, as Spring Data Redis translates them, are told from MySQL's, and Redis's refusals for now from its other errors. */
class RedisFailuresTest {

    private final LettuceExceptionConverter translate = new LettuceExceptionConverter();

    @Test
    void redisFailuresAsSpringTranslatesThemAreRedis() {
        DataAccessException timedOut = translate.convert(new RedisCommandTimeoutException("Command timed out after 60 second(s)"));
        DataAccessException refused = translate.convert(new RedisConnectionException("Connection refused"));

        // A timed-out command is Spring's generic QueryTimeoutException: only its cause says Redis.
        assertThat(timedOut).isInstanceOf(QueryTimeoutException.class);
        assertThat(RedisFailures.isRedis(timedOut)).isTrue();
        assertThat(RedisFailures.isRedis(refused)).isTrue();
        assertThatCode(() -> RedisFailures.rethrowUnlessRedis(timedOut)).as("a fall-back may run").doesNotThrowAnyException();
        assertThat(RedisFailures.isRedis(new IllegalStateException("wrapped", refused))).isTrue();
    }

    @Test
    void mySqlsFailuresAreNot() {
        CannotGetJdbcConnectionException poolExhausted = new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available, request timed out after 5000ms"));

        assertThat(RedisFailures.isRedis(poolExhausted)).isFalse();
        assertThatThrownBy(() -> RedisFailures.rethrowUnlessRedis(poolExhausted)).isSameAs(poolExhausted);
        assertThat(RedisFailures.isRedis(new QueryTimeoutException("statement cancelled"))).isFalse();
    }

    @Test
    void errorRepliesThatPassWithTimeAreRefusalsForNow() {
        for (String reply : List.of("OOM command not allowed when used memory > 'maxmemory'.",
                "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.",
                "READONLY You can't write against a read only replica.",
                "LOADING Redis is loading the dataset in memory",
                "CLUSTERDOWN The cluster is down",
                "ERR Error running script (call to f_0123): @user_script:12: @user_script: 12: -OOM command not allowed when used "
                        + "memory > 'maxmemory'.")) {
            assertThat(RedisFailures.isRefusedForNow(translate.convert(new RedisCommandExecutionException(reply)))).as(reply).isTrue();
        }
    }

    @Test
    void errorRepliesOfAWrongCommandAreNot() {
        for (String reply : List.of("WRONGTYPE Operation against a key holding the wrong kind of value",
                "NOSCRIPT No matching script. Please use EVAL.", "ERR value is not an integer or out of range")) {
            assertThat(RedisFailures.isRefusedForNow(translate.convert(new RedisCommandExecutionException(reply)))).as(reply).isFalse();
        }
        assertThat(RedisFailures.isRefusedForNow(translate.convert(new RedisConnectionException("Connection refused")))).isFalse();
        assertThat(RedisFailures.isRefusedForNow(new IllegalStateException("OOM "))).isFalse();
    }

    @Test
    void aChainOfCausesThatLoopsEnds() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);

        assertThat(RedisFailures.isRedis(second)).isFalse();
        assertThat(RedisFailures.isRefusedForNow(second)).isFalse();
    }
}
