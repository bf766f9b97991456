package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

@WithEmbeddedStorage
class NodeLeaseTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Transactions tx;

    @Autowired
    StorageTasks tasks;

    @Autowired
    IdGenerator contextIds;

    private final List<NodeLease> leases = new ArrayList<>();

    @AfterEach
    void releaseLeases() {
        leases.forEach(NodeLease::release);
    }

    @Test
    void twoLeasesGetDifferentNodesAndTheirIdsNeverCollide() throws Exception {
        NodeLease a = lease("a");
        NodeLease b = lease("b");
        assertThat(a.nodeId()).isNotEqualTo(b.nodeId()).isBetween(0, IdGenerator.MAX_NODE);
        assertThat(owner(a.nodeId())).isEqualTo(a.owner());
        assertThat(owner(b.nodeId())).isEqualTo(b.owner());
        assertThat(a.nodeId()).isNotEqualTo(contextIds.nodeId());

        var generatorA = new IdGenerator(a, System::currentTimeMillis);
        var generatorB = new IdGenerator(b, System::currentTimeMillis);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                IdGenerator generator = t % 2 == 0 ? generatorA : generatorB;
                futures.add(pool.submit(() -> {
                    long[] ids = new long[5_000];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = generator.next();
                    }
                    return ids;
                }));
            }
            Set<Long> all = new HashSet<>();
            for (Future<long[]> future : futures) {
                long[] ids = future.get(60, TimeUnit.SECONDS);
                for (int i = 1; i < ids.length; i++) {
                    assertThat(ids[i]).isGreaterThan(ids[i - 1]);
                }
                for (long id : ids) {
                    all.add(id);
                }
            }
            assertThat(all).hasSize(20_000);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLostLeaseIsNeverUsedAgain() {
        NodeLease lease = lease("lost");
        int first = lease.nodeId();
        assertThat(lease.renew()).isTrue();
        jdbc.sql("UPDATE id_nodes SET owner = 'someone else' WHERE node_id = ?").param(first).update();

        assertThat(lease.renew()).isFalse();
        int second = lease.nodeId();
        assertThat(second).isNotEqualTo(first);
        assertThat(IdGenerator.nodeOf(new IdGenerator(lease, System::currentTimeMillis).next())).isEqualTo(second);
        jdbc.sql("UPDATE id_nodes SET owner = NULL, expires_at = '1970-01-01' WHERE node_id = ?").param(first).update();
    }

    @Test
    void aReleasedNodeIsFreeAgainShortly() {
        NodeLease lease = lease("released");
        int node = lease.nodeId();
        lease.release();
        assertThat(owner(node)).isNull();
        Await.until("node " + node + " to expire", () -> jdbc.sql(
                "SELECT expires_at < UTC_TIMESTAMP(6) FROM id_nodes WHERE node_id = ?").param(node).query(Boolean.class).single());
    }

    @Test
    void theContextLeasesItsNodeWhenNoneIsConfigured() {
        int node = contextIds.nodeId();
        assertThat(owner(node)).isNotNull();
        assertThat(IdGenerator.nodeOf(contextIds.next())).isEqualTo(node);
    }

    private NodeLease lease(String name) {
        NodeLease lease = new NodeLease(jdbc, tx, tasks, Duration.ofSeconds(30), "test-" + name + "-" + TestKinds.unique());
        leases.add(lease);
        return lease;
    }

    private String owner(int node) {
        return jdbc.sql("SELECT owner FROM id_nodes WHERE node_id = ?").param(node).query(String.class).optional().orElse(null);
    }
}
