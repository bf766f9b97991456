package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The surefire run with {@code tributary.embedded.redis=cluster} (profile redis-cluster) really
 * is on a cluster: Spring's connection is the Lettuce cluster one, three masters share the
 * slots, and one counter call for people of several buckets leaves their hashes on more than
 * one master.
 */
@WithEmbeddedPubsub
@EnabledIfSystemProperty(named = "tributary.embedded.redis", matches = "cluster")
class OnRedisClusterTest {

    @Autowired StringRedisTemplate redis;
    @Autowired UnreadCounters counters;
    @Autowired Fixtures fixtures;

    @Test
    void countersOfOneBatchLandOnSeveralMastersOfAThreeMasterCluster() {
        LettuceConnectionFactory factory = (LettuceConnectionFactory) redis.getConnectionFactory();
        assertThat(factory.isClusterAware()).isTrue();
        List<Long> people = fixtures.people(40);
        people.forEach(counters::read);
        counters.apply(people.stream().map(p -> new UnreadDelta(p, 0L, 1, dev.tributary.pubsub.MediaType.TEXT, 1)).toList(),
                null, List.of());
        try (RedisClusterConnection cluster = factory.getClusterConnection()) {
            assertThat(cluster.clusterGetClusterInfo().getClusterSize()).isEqualTo(3);
            assertThat(cluster.clusterGetClusterInfo().getSlotsOk()).isEqualTo(16_384);
            Set<RedisClusterNode> holders = new HashSet<>();
            for (long person : people) {
                holders.add(cluster.clusterGetNodeForKey(UnreadCounters.key(person).getBytes()));
                assertThat(counters.read(person).total()).isEqualTo(1);
            }
            assertThat(holders).hasSizeGreaterThan(1);
        }
    }
}
