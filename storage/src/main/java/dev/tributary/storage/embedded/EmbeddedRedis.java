package dev.tributary.storage.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;

import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * A real Redis server (embedded-redis) on a free loopback port that keeps nothing on disk,
 * reachable only with the generated password, its administrative commands renamed away.
 */
final class EmbeddedRedis {

    private final int port;
    private final EmbeddedCredentials credentials;
    private RedisServer server;

    EmbeddedRedis(EmbeddedCredentials credentials) {
        this.port = LoopbackPorts.free();
        this.credentials = credentials;
    }

    void start() {
        try {
            server = locked(RedisServer.newRedisServer(), credentials)
                    .port(port)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    // embedded-redis always adds a JVM hook that stops this server at exit, beside Spring's
                    // closing of the contexts: not forced, so Redis ends on SIGTERM, cleanly. EmbeddedServers
                    // stops it after the last context closed, and starts nothing again once the JVM exits.
                    .onShutdownForceStop(false)
                    .build();
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded Redis did not start on port " + port, e);
        }
    }

    /**
     * What every embedded Redis node runs with: loopback only, protected mode, the password, and
     * {@code CONFIG}, {@code DEBUG} and {@code MODULE} known only by names in the credentials file
     * (with {@code CONFIG SET dir} and {@code SAVE}, a client could write the server's files anywhere).
     * embedded-redis writes these settings to an owner-only temporary file, not to the command line.
     */
    static RedisServerBuilder locked(RedisServerBuilder builder, EmbeddedCredentials credentials) {
        return builder
                .bind("127.0.0.1")
                .setting("protected-mode yes")
                .setting("requirepass " + credentials.redisPassword())
                .setting("masterauth " + credentials.redisPassword())
                .setting("rename-command CONFIG " + credentials.redisAdminCommand("CONFIG"))
                .setting("rename-command DEBUG " + credentials.redisAdminCommand("DEBUG"))
                .setting("rename-command MODULE " + credentials.redisAdminCommand("MODULE"));
    }

    /** For {@code spring.data.redis.url}: carries the password, so never log it; {@link #address()} is for logs. */
    String url() {
        return "redis://:" + credentials.redisPassword() + "@127.0.0.1:" + port;
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** Whether the server answers an authenticated PING (false once its process has died). */
    boolean answers() {
        try (RespConnection connection = new RespConnection(port, credentials.redisPassword())) {
            return "PONG".equals(connection.call("PING"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** After its process died: forgets it, so {@link #start()} can run it again on the same port. */
    void stopQuietly() {
        try {
            stop();
        } catch (RuntimeException e) {
            // Already dead: there is nothing left to stop.
        }
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
