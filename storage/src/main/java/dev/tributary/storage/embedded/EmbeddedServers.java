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

    private final EmbeddedCredentials credentials;
    private final EmbeddedMariaDb mariaDb;
    // Guarded by LOCK: a context that asks for the other kind of Redis starts it later.
    private EmbeddedRedis redis;
    private EmbeddedRedisCluster cluster;
    private EmbeddedSupervisor supervisor;

    private EmbeddedServers(EmbeddedCredentials credentials, EmbeddedMariaDb mariaDb, EmbeddedRedis redis) {
        this.credentials = credentials;
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
                running.supervisor = EmbeddedSupervisor.start(settings.supervisePeriod(), running::restartDeadServers, log);
                // For a context that is never closed: Spring runs this after closing the contexts it
                // knows of, so the servers outlive every context that uses them.
                SpringApplication.getShutdownHandlers().add(running::stopAtExit);
            }
            if (single && running.redis == null) {
                running.redis = startRedis(running.credentials, log);
            }
            if (cluster && running.cluster == null) {
                EmbeddedRedisCluster started = new EmbeddedRedisCluster(running.credentials);
                started.start();
                log.info("Embedded Redis Cluster (" + EmbeddedRedisCluster.MASTERS + " masters) at " + started.nodes());
                running.cluster = started;
            }
            users++;
            return running;
        }
    }

    private static EmbeddedRedis startRedis(EmbeddedCredentials credentials, Log log) {
        EmbeddedRedis redis = new EmbeddedRedis(credentials);
        redis.start();
        log.info("Embedded Redis listening at " + redis.address() + " (password in " + EmbeddedCredentials.FILE + ")");
        return redis;
    }

    private static EmbeddedServers start(EmbeddedSettings settings, boolean wantMariaDb, boolean wantRedis, Log log) {
        if (settings.ephemeral()) {
            // A test's data directory is thrown away whole; its credentials go with it.
            EmbeddedMariaDb.deleteRecursively(settings.dataDir().toAbsolutePath().normalize().resolve(EmbeddedCredentials.FILE));
        }
        EmbeddedCredentials credentials = EmbeddedCredentials.inDirectory(settings.dataDir());
        EmbeddedRedis redis = wantRedis ? startRedis(credentials, log) : null;
        EmbeddedMariaDb mariaDb = null;
        if (wantMariaDb) {
            long started = System.nanoTime();
            mariaDb = new EmbeddedMariaDb(settings, credentials);
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
        return new EmbeddedServers(credentials, mariaDb, redis);
    }

    /**
     * The supervisor's round: a server whose port no longer takes connections (its process died)
     * is started again on the same port with the same credentials. MariaDB recovers its data as
     * after any crash; Redis comes back empty, and what it held is rebuilt from MySQL as after a
     * {@code FLUSHALL}.
     */
    void restartDeadServers(Log log) {
        synchronized (LOCK) {
            // Once the JVM is exiting, a server found dead was stopped on purpose (embedded-redis's own
            // hook stops its Redis while the contexts still close), and one started now would outlive
            // the JVM: embedded-redis launches the process, then fails to add its hook, and drops it.
            if (running != this || exiting()) {
                return;
            }
            if (mariaDb != null && !mariaDb.alive()) {
                log.warn("Embedded MariaDB on port " + mariaDb.port() + " is gone; starting it again");
                mariaDb.restart();
                log.info("Embedded MariaDB is back on port " + mariaDb.port());
            }
            if (redis != null && !LoopbackPorts.accepting(redis.port())) {
                log.warn("Embedded Redis on port " + redis.port() + " is gone; starting it again (it comes back empty)");
                redis.stopQuietly();
                redis.start();
                log.info("Embedded Redis is back on " + redis.address());
            }
        }
    }

    /** Whether the JVM's shutdown has begun: the runtime takes no more hooks from then on. */
    private static boolean exiting() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shutdownInProgress) {
            return true;
        }
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
        if (supervisor != null) {
            supervisor.stop();
        }
        // Redis first: it stops at once, while MariaDB's shutdown can outlast a caller's patience (surefire
        // kills a JVM whose exit takes over 30 s). MariaDB, once told, finishes stopping without us; a
        // Redis never told was left running, parented to init (seen after CI runs, 2026-11-28).
        try {
            if (redis != null) {
                redis.stop();
            }
        } finally {
            try {
                if (cluster != null) {
                    cluster.stop();
                }
            } finally {
                if (mariaDb != null) {
                    mariaDb.stop();
                }
            }
        }
    }

    EmbeddedCredentials credentials() {
        return credentials;
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
