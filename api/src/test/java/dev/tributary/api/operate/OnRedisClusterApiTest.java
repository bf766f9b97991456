package dev.tributary.api.operate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The api module's run with {@code tributary.embedded.redis=cluster} (profile redis-cluster)
 * really is on a cluster: the app reads {@code spring.data.redis.cluster.nodes} (and no URL) and
 * Spring's connection is the Lettuce cluster one, three masters sharing every slot.
 */
@ApiTest
@EnabledIfSystemProperty(named = "tributary.embedded.redis", matches = "cluster")
class OnRedisClusterApiTest {

    @Autowired StringRedisTemplate redis;
    @Autowired Environment environment;

    @Test
    void theAppTalksToAThreeMasterClusterThroughTheClusterNodesSetting() {
        assertThat(environment.getProperty("spring.data.redis.cluster.nodes")).contains(",");
        assertThat(environment.getProperty("spring.data.redis.url")).isNull();
        LettuceConnectionFactory factory = (LettuceConnectionFactory) redis.getConnectionFactory();
        assertThat(factory.isClusterAware()).isTrue();
        try (RedisClusterConnection cluster = factory.getClusterConnection()) {
            assertThat(cluster.clusterGetClusterInfo().getClusterSize()).isEqualTo(3);
            assertThat(cluster.clusterGetClusterInfo().getSlotsOk()).isEqualTo(16_384);
        }
    }
}
