package dev.tributary.storage.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;

import redis.embedded.RedisServer;

/** A real Redis server (embedded-redis) on a free loopback port that keeps nothing on disk. */
final class EmbeddedRedis {

    private final int port;
    private RedisServer server;

    EmbeddedRedis() {
        this.port = LoopbackPorts.free();
    }

    void start() {
        try {
            server = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .setting("protected-mode yes")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded Redis did not start on port " + port, e);
        }
    }

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    void stop() {
        if (server == null) {
            return;
        }
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded Redis did not stop cleanly", e);
        } finally {
            server = null;
        }
    }
}
