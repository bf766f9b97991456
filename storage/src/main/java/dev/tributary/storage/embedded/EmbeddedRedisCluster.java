package dev.tributary.storage.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import redis.embedded.RedisServer;

/**
 * A real Redis Cluster of three masters (no replicas) from the embedded Redis binary, on free
 * loopback ports, keeping nothing on disk but each node's cluster file in a temporary directory.
 * The kit assigns the slots itself (MEET, then ADDSLOTS of a third of 0–16383 per master) and
 * returns once every node reports {@code cluster_state:ok} and all agree on who serves which slots.
 */
final class EmbeddedRedisCluster {

    static final int MASTERS = 3;
    private static final int SLOTS = 16_384;
    /** Redis 6.2 (the embedded binary) puts the cluster bus at port + 10000; 7.0's cluster-port is not there. */
    private static final int BUS_OFFSET = 10_000;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final List<Integer> ports;
    private final Path directory;
    private final EmbeddedCredentials credentials;
    private final List<RedisServer> servers = new ArrayList<>();

    EmbeddedRedisCluster(EmbeddedCredentials credentials) {
        this.credentials = credentials;
        this.ports = freePortsWithBus(MASTERS);
        try {
            this.directory = Files.createTempDirectory("tributary-redis-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("No temporary directory for the Redis cluster files", e);
        }
    }

    void start() {
        try {
            for (int port : ports) {
                RedisServer server = EmbeddedRedis.locked(RedisServer.newRedisServer(), credentials)
                        .port(port)
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .setting("cluster-enabled yes")
                        .setting("cluster-config-file " + directory.resolve("nodes-" + port + ".conf"))
                        .setting("cluster-node-timeout 5000")
                        .onShutdownForceStop(false)
                        .build();
                servers.add(server);
                server.start();
            }
            assignSlots();
            awaitReady();
        } catch (IOException | RuntimeException e) {
            stop();
            throw new IllegalStateException("Embedded Redis Cluster did not start on ports " + ports + ": " + e.getMessage(), e);
        }
    }

    /** The first node meets the others; each master then takes one contiguous third of the slots. */
    private void assignSlots() {
        try (RespConnection first = new RespConnection(ports.getFirst(), credentials.redisPassword())) {
            for (int port : ports.subList(1, ports.size())) {
                first.call("CLUSTER", "MEET", "127.0.0.1", Integer.toString(port));
            }
        }
        for (int i = 0; i < MASTERS; i++) {
            int from = SLOTS * i / MASTERS;
            int to = SLOTS * (i + 1) / MASTERS - 1;
            List<String> command = new ArrayList<>(2 + to - from + 1);
            command.add("CLUSTER");
            // ADDSLOTSRANGE is Redis 7.0; the embedded binary is 6.2, so every slot is named.
            command.add("ADDSLOTS");
            for (int slot = from; slot <= to; slot++) {
                command.add(Integer.toString(slot));
            }
            try (RespConnection node = new RespConnection(ports.get(i), credentials.redisPassword())) {
                node.call(command);
            }
        }
    }

    private void awaitReady() {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        String last = "";
        while (Instant.now().isBefore(deadline)) {
            last = notReady();
            if (last.isEmpty()) {
                return;
            }
            pause();
        }
        throw new IllegalStateException("not ready within " + READY_TIMEOUT + ": " + last);
    }

    /** Empty when every node is ok, knows all masters, and all report the same slot map; else why not. */
    private String notReady() {
        Set<String> maps = new HashSet<>();
        for (int port : ports) {
            try (RespConnection node = new RespConnection(port, credentials.redisPassword())) {
                String info = (String) node.call("CLUSTER", "INFO");
                if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:" + SLOTS)
                        || !info.contains("cluster_known_nodes:" + MASTERS)) {
                    return "node " + port + ": " + info.lines().limit(6).collect(Collectors.joining(" "));
                }
                maps.add(slotMap((List<?>) node.call("CLUSTER", "SLOTS")));
            }
        }
        return maps.size() == 1 ? "" : "nodes disagree on the slots: " + maps;
    }

    /** CLUSTER SLOTS as sorted "from-to@port" entries. */
    private static String slotMap(List<?> slots) {
        return slots.stream().map(range -> {
            List<?> r = (List<?>) range;
            List<?> master = (List<?>) r.get(2);
            return r.get(0) + "-" + r.get(1) + "@" + master.get(1);
        }).sorted().collect(Collectors.joining(","));
    }

    /** For {@code spring.data.redis.cluster.nodes}: host:port of every master, comma-separated. */
    String nodes() {
        return ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    List<Integer> ports() {
        return List.copyOf(ports);
    }

    void stop() {
        List<Exception> failures = new ArrayList<>();
        for (RedisServer server : servers) {
            try {
                server.stop();
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
        }
        servers.clear();
        deleteDirectory();
        if (!failures.isEmpty()) {
            IllegalStateException failure = new IllegalStateException("Embedded Redis Cluster did not stop cleanly");
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    private void deleteDirectory() {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot clear " + directory, e);
        }
    }

    /**
     * Ports whose cluster-bus port (port + 10000) is free too. The kernel's own free ports lie in
     * the ephemeral range, where port + 10000 may pass 65535, so they are drawn below it.
     */
    private static List<Integer> freePortsWithBus(int count) {
        List<Integer> chosen = new ArrayList<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1_000 && chosen.size() < count; attempt++) {
            int port = 20_000 + random.nextInt(12_000);
            if (!chosen.contains(port) && !chosen.contains(port - BUS_OFFSET) && free(port) && free(port + BUS_OFFSET)) {
                chosen.add(port);
            }
        }
        if (chosen.size() < count) {
            throw new IllegalStateException("No " + count + " free loopback ports with free cluster-bus ports");
        }
        return chosen;
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(Duration.ofMillis(50));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the Redis cluster", e);
        }
    }
}
