package dev.tributary.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The buckets on the app's own Redis: the count and the keys read along come back from one script
 * call on a single Redis; on a cluster (the same test in the Redis Cluster run) nothing is read
 * along and the request is counted all the same.
 */
@ApiTest
class RedisBucketsApiTest {

    @Autowired Buckets buckets;
    @Autowired StringRedisTemplate redis;

    private boolean cluster() {
        return redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
    }

    @Test
    void theKeysReadAlongComeBackWithTheCountInOrderWithNullsForWhatHoldsNoString() {
        String run = UUID.randomUUID().toString();
        String bucket = "ratelimit:test:" + run;
        redis.opsForValue().set("along:" + run + ":a", "first");
        redis.opsForHash().put("along:" + run + ":hash", "field", "1");
        redis.opsForValue().set("along:" + run + ":b", "");
        List<String> keys = List.of("along:" + run + ":a", "along:" + run + ":missing", "along:" + run + ":hash",
                "along:" + run + ":b");

        Buckets.Taken first = buckets.take(bucket, 10, Duration.ofMinutes(5), keys);
        Buckets.Taken second = buckets.take(bucket, 10, Duration.ofMinutes(5), keys);

        assertThat(first.bucket().count()).isEqualTo(1);
        assertThat(second.bucket().count()).isEqualTo(2);
        assertThat(second.bucket().resetMillis()).isBetween(1L, Duration.ofMinutes(5).toMillis());
        if (cluster()) {
            assertThat(second.values()).as("a cluster reads nothing along").isNull();
        } else {
            assertThat(second.values()).containsExactly("first", null, null, "");
        }
    }

    @Test
    void withNothingToReadTheBucketIsCountedAsBefore() {
        String bucket = "ratelimit:test:" + UUID.randomUUID();

        Buckets.Taken taken = buckets.take(bucket, 1, Duration.ofSeconds(30), List.of());
        Bucket over = buckets.take(bucket, 1, Duration.ofSeconds(30));

        assertThat(taken.values()).isEmpty();
        assertThat(taken.bucket().exceeded()).isFalse();
        assertThat(over.exceeded()).isTrue();
        assertThat(redis.getExpire(bucket)).isBetween(1L, 30L);
    }
}
