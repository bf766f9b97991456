package dev.tributary.storage.embedded;

import java.util.Optional;

import org.apache.commons.logging.Log;
import org.springframework.boot.SpringApplication;

/**
 * The JVM's embedded MariaDB and Redis (a single server, a three-master cluster, or both), shared
 * by every Spring context in the JVM.
 *
 * <p>The one static holder in Tributary, on purpose: these are operating-system processes, one
 * pair per JVM, and cached test contexts must share them rather than each start their own.
 * Contexts acquire and release them; the last release stops them, after that context's pool.
 */
public final class EmbeddedServers {

    private static final Object LOCK = new Object();
    private static EmbeddedServers running;
    private static int users;

    private final EmbeddedMariaDb mariaDb;
    // Guarded by LOCK: a context that asks for the other kind of Redis starts it later.
    private EmbeddedRedis redis;
    private EmbeddedRedisCluster cluster;

    private EmbeddedServers(EmbeddedMariaDb mariaDb, EmbeddedRedis redis) {
        this.mariaDb = mariaDb;
        this.redis = redis;
    }

    /** Starts the servers that are asked for unless this JVM already runs them, and counts one more user. */
    static EmbeddedServers acquire(EmbeddedSettings settings, boolean wantMariaDb, boolean wantRedis, Log log) {
        synchronized (LOCK) {
            boolean single = wantRedis && settings.redis() == EmbeddedSettings.RedisKind.SINGLE;
            boolean cluster = wantRedis && settings.redis() == EmbeddedSettings.RedisKind.CLUSTER;
            if (running == null) {
                running = start(settings, wantMariaDb, single, log);
                // For a context that is never closed: Spring runs this after closing the contexts it
                // knows of, so the servers outlive every context that uses them.
                SpringApplication.getShutdownHandlers().add(running::stopAtExit);
            }
            if (single && running.redis == null) {
                running.redis = startRedis(log);
            }
            if (cluster && running.cluster == null) {
                EmbeddedRedisCluster started = new EmbeddedRedisCluster();
                started.start();
                log.info("Embedded Redis Cluster (" + EmbeddedRedisCluster.MASTERS + " masters) at " + started.nodes());
                running.cluster = started;
            }
            users++;
            return running;
        }
    }

    private static EmbeddedRedis startRedis(Log log) {
        EmbeddedRedis redis = new EmbeddedRedis();
        redis.start();
        log.info("Embedded Redis listening at " + redis.url());
        return redis;
    }

    private static EmbeddedServers start(EmbeddedSettings settings, boolean wantMariaDb, boolean wantRedis, Log log) {
        EmbeddedRedis redis = wantRedis ? startRedis(log) : null;
        EmbeddedMariaDb mariaDb = null;
        if (wantMariaDb) {
            long started = System.nanoTime();
            mariaDb = new EmbeddedMariaDb(settings);
            try {
                mariaDb.start();
            } catch (RuntimeException e) {
                if (redis != null) {
                    redis.stop();
                }
                throw e;
            }
            log.info("Embedded MariaDB ready at " + mariaDb.jdbcUrl() + " (data in "
                    + settings.dataDir().toAbsolutePath().normalize() + ", "
                    + (System.nanoTime() - started) / 1_000_000 + " ms)");
        }
        return new EmbeddedServers(mariaDb, redis);
    }

    /** Counts one user less; the last one stops both servers. */
    void release() {
        synchronized (LOCK) {
            if (running != this || --users > 0) {
                return;
            }
            stop();
        }
    }

    private void stopAtExit() {
        synchronized (LOCK) {
            if (running == this) {
                stop();
            }
        }
    }

    private void stop() {
        running = null;
        users = 0;
        try {
            if (mariaDb != null) {
                mariaDb.stop();
            }
        } finally {
            try {
                if (redis != null) {
                    redis.stop();
                }
            } finally {
                if (cluster != null) {
                    cluster.stop();
                }
            }
        }
    }

    Optional<String> jdbcUrl() {
        return Optional.ofNullable(mariaDb).map(EmbeddedMariaDb::jdbcUrl);
    }

    Optional<String> redisUrl() {
        synchronized (LOCK) {
            return Optional.ofNullable(redis).map(EmbeddedRedis::url);
        }
    }

    /** The cluster's masters as {@code spring.data.redis.cluster.nodes} spells them, if it runs. */
    Optional<String> redisClusterNodes() {
        synchronized (LOCK) {
            return Optional.ofNullable(cluster).map(EmbeddedRedisCluster::nodes);
        }
    }
}
