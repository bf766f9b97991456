package dev.tributary.storage;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A lease on one of the 1024 node ids in id_nodes, so that nodes need no configuration to get
 * distinct ids. Claimed on first use, renewed in the background every third of the TTL, and
 * released at shutdown. Expiry is judged by the database's UTC clock; locally the lease counts
 * as held only until (time the claim or renewal was sent + TTL), which is never later than the
 * database's expiry, so two owners never hold a node id at the same time.
 */
final class NodeLease implements NodeSlot, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(NodeLease.class);
    private static final int NONE = -1;

    private final JdbcClient jdbc;
    private final Transactions tx;
    private final StorageTasks tasks;
    private final Duration ttl;
    private final String owner;

    private volatile int nodeId = NONE;
    /** System.nanoTime() after which the lease may have expired in the database. */
    private volatile long validUntilNanos;
    private ScheduledFuture<?> renewal;

    NodeLease(JdbcClient jdbc, Transactions tx, StorageTasks tasks, Duration ttl) {
        this(jdbc, tx, tasks, ttl, defaultOwner());
    }

    NodeLease(JdbcClient jdbc, Transactions tx, StorageTasks tasks, Duration ttl, String owner) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.tasks = tasks;
        this.ttl = ttl;
        this.owner = owner;
    }

    @Override
    public int nodeId() {
        int current = nodeId;
        if (current != NONE && System.nanoTime() - validUntilNanos < 0) {
            return current;
        }
        return claimOrFail();
    }

    /** A lease lost or lapsed is never resumed: ids restart under a newly claimed node id. */
    private synchronized int claimOrFail() {
        if (nodeId != NONE && System.nanoTime() - validUntilNanos < 0) {
            return nodeId;
        }
        if (nodeId != NONE) {
            log.warn("id node lease {} lapsed (owner {}); claiming a new one", nodeId, owner);
            stopRenewal();
            nodeId = NONE;
        }
        long sentAt = System.nanoTime();
        Optional<Integer> claimed;
        try {
            claimed = tx.write("claim id node", this::claim);
        } catch (RuntimeException e) {
            throw new IdGenerationException("cannot lease an id node from id_nodes: " + e.getMessage(), e);
        }
        int claimedId = claimed.orElseThrow(() -> new IdGenerationException(
                "all " + (IdGenerator.MAX_NODE + 1) + " id nodes are leased; set tributary.storage.node-id or wait for a lease to expire"));
        validUntilNanos = sentAt + ttl.toNanos();
        nodeId = claimedId;
        Duration period = ttl.dividedBy(3);
        renewal = tasks.afterDelayEvery(period, this::renewQuietly);
        log.info("leased id node {} as {} for {}", claimedId, owner, ttl);
        return claimedId;
    }

    /** Takes the longest-expired slot, so a just-released node id is reused last. */
    private Optional<Integer> claim() {
        Optional<Integer> free = jdbc.sql("""
                SELECT node_id FROM id_nodes
                WHERE expires_at < UTC_TIMESTAMP(6)
                ORDER BY expires_at, node_id
                LIMIT 1
                FOR UPDATE SKIP LOCKED
                """)
                .query(Integer.class)
                .optional();
        free.ifPresent(id -> jdbc.sql("""
                UPDATE id_nodes SET owner = ?, expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND
                WHERE node_id = ?
                """)
                .params(owner, ttl.toNanos() / 1000, id)
                .update());
        return free;
    }

    /** Extends the lease; returns false (and gives the node id up) if another owner has it now. */
    boolean renew() {
        int current = nodeId;
        if (current == NONE) {
            return false;
        }
        long sentAt = System.nanoTime();
        int updated = jdbc.sql("""
                UPDATE id_nodes SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND
                WHERE node_id = ? AND owner = ? AND expires_at > UTC_TIMESTAMP(6)
                """)
                .params(ttl.toNanos() / 1000, current, owner)
                .update();
        synchronized (this) {
            if (nodeId != current) {
                return false;
            }
            if (updated == 1) {
                validUntilNanos = sentAt + ttl.toNanos();
                return true;
            }
            log.error("id node lease {} was lost (owner {}): no ids under it from now on", current, owner);
            nodeId = NONE;
            stopRenewal();
            return false;
        }
    }

    private void renewQuietly() {
        try {
            renew();
        } catch (RuntimeException e) {
            // The lease stays valid locally until validUntilNanos; the next renewal may succeed.
            log.warn("renewing id node lease {} failed: {}", nodeId, e.toString());
        }
    }

    /** Gives the node id back; the slot expires two seconds from now, a margin for clock skew between nodes. */
    synchronized void release() {
        stopRenewal();
        int current = nodeId;
        nodeId = NONE;
        if (current != NONE) {
            jdbc.sql("""
                    UPDATE id_nodes SET owner = NULL, expires_at = UTC_TIMESTAMP(6) + INTERVAL 2 SECOND
                    WHERE node_id = ? AND owner = ?
                    """)
                    .params(current, owner)
                    .update();
        }
    }

    @Override
    public void destroy() {
        try {
            release();
        } catch (RuntimeException e) {
            log.warn("releasing id node lease failed; it expires by itself: {}", e.toString());
        }
    }

    private void stopRenewal() {
        if (renewal != null) {
            renewal.cancel(false);
            renewal = null;
        }
    }

    String owner() {
        return owner;
    }

    private static String defaultOwner() {
        String host = System.getenv().getOrDefault("HOSTNAME", "unknown");
        return host + "/" + ManagementFactory.getRuntimeMXBean().getPid() + "/" + UUID.randomUUID();
    }
}
