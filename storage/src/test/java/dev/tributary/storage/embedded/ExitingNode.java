package dev.tributary.storage.embedded;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.util.unit.DataSize;

/**
 * A JVM that runs the embedded Redis and exits as a test JVM does after its last test: while
 * Spring's hook is still closing contexts (here: held until this one is done), embedded-redis's
 * own hook stops Redis, and a supervisor round finds it dead. Run by {@link EmbeddedServersExitTest}.
 */
final class ExitingNode {

    private ExitingNode() {
    }

    public static void main(String[] args) {
        Log log = LogFactory.getLog(ExitingNode.class);
        // A supervisor that never runs on its own: the round below is the one that matters.
        EmbeddedSettings settings = new EmbeddedSettings(Path.of(args[0]), true, Duration.ofSeconds(120), "tributary",
                EmbeddedSettings.RedisKind.SINGLE, DataSize.ofMegabytes(128), Duration.ofHours(1));
        EmbeddedServers servers = EmbeddedServers.acquire(settings, false, true, log);
        int port = URI.create(servers.redisUrl().orElseThrow()).getPort();
        CountDownLatch supervised = new CountDownLatch(1);
        // Spring runs its shutdown handlers last added first: this one holds the servers' own stop back.
        SpringApplication.getShutdownHandlers().add(() -> {
            try {
                supervised.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                while (LoopbackPorts.accepting(port)) {
                    LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
                }
                System.out.println("redis stopped by its own hook");
                servers.restartDeadServers(log);
                System.out.println("supervised");
            } finally {
                supervised.countDown();
            }
        }));
        System.out.println("redis " + port);
        System.out.flush();
        System.exit(0);
    }
}
