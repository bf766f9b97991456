package dev.tributary.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The test kit's Redis Cluster is a real one: three masters on loopback sharing all 16,384 slots, keys routed by slot. */
class EmbeddedRedisClusterTest {

    private static final EmbeddedCredentials CREDENTIALS = new EmbeddedCredentials("tributary", "cluster-test-password",
            "cluster-test-redis-password", "clustertest");
    private static EmbeddedRedisCluster cluster;

    @BeforeAll
    static void start() {
        cluster = new EmbeddedRedisCluster(CREDENTIALS);
        cluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.stop();
    }

    @Test
    void everyMasterSeesAHealthyClusterOfThreeCoveringEverySlot() {
        assertThat(cluster.nodes()).matches("127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+,127\\.0\\.0\\.1:\\d+");
        for (int port : cluster.ports()) {
            try (RespConnection node = new RespConnection(port, CREDENTIALS.redisPassword())) {
                String info = (String) node.call("CLUSTER", "INFO");
                assertThat(info).contains("cluster_state:ok", "cluster_slots_ok:16384", "cluster_known_nodes:3", "cluster_size:3");
                List<?> slots = (List<?>) node.call("CLUSTER", "SLOTS");
                assertThat(slots).hasSize(3);
                String servedBy = slots.stream().map(range -> ((List<?>) ((List<?>) range).get(2)).get(1).toString())
                        .sorted().collect(Collectors.joining(","));
                assertThat(servedBy).isEqualTo(cluster.ports().stream().sorted().map(String::valueOf).collect(Collectors.joining(",")));
            }
        }
    }

    @Test
    void aKeyLivesOnTheMasterOfItsSlotAndOthersRedirect() {
        int owners = 0;
        for (int port : cluster.ports()) {
            try (RespConnection node = new RespConnection(port, CREDENTIALS.redisPassword())) {
                try {
                    node.call("SET", "kit:{tag}", "1");
                    owners++;
                } catch (IllegalStateException moved) {
                    assertThat(moved).hasMessageContaining("MOVED");
                }
            }
        }
        assertThat(owners).isEqualTo(1);
    }

    @Test
    void everyNodeRefusesAClientWithoutThePassword() {
        for (int port : cluster.ports()) {
            try (RespConnection node = new RespConnection(port)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> node.call("CLUSTER", "INFO")).hasMessageContaining("NOAUTH");
            }
        }
    }
}
