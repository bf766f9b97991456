package dev.tributary.api.testing;

import dev.tributary.storage.testing.Await;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * A real XMPP server for tests: Debian's Prosody (0.12), run as a child process in the
 * foreground with a config, data directory and loopback port of its own (never the system
 * service), and stopped by its own process handle. Its domain is {@code localhost} with the
 * XEP-0060 service {@code pubsub.localhost}; {@code tributary@localhost} is its admin (so it may
 * create nodes). Without {@code prosody} on the PATH a test using it is skipped with a warning,
 * unless {@code TRIBUTARY_XMPP_TESTS=required}, as {@code .ci/run} sets.
 */
public final class Prosody implements AutoCloseable {

    public static final String DOMAIN = "localhost";
    public static final String PUBSUB = "pubsub.localhost";
    public static final String APP_USER = "tributary";
    public static final String APP_SECRET = "tributary-secret";

    private final Path dir;
    private final int port;
    private @Nullable Process process;

    private Prosody(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Skips the calling test (or fails it when required) if Prosody is not installed. */
    public static void assumeInstalled() {
        if (find("prosody") != null && find("prosodyctl") != null) {
            return;
        }
        String reason = "no prosody on the PATH (apt-get install prosody)";
        if ("required".equalsIgnoreCase(System.getenv("TRIBUTARY_XMPP_TESTS"))) {
            throw new AssertionError("TRIBUTARY_XMPP_TESTS=required but " + reason);
        }
        System.out.println("\n*** SKIPPED XMPP test: " + reason + " ***\n");
        Assumptions.abort(reason);
    }

    /** Starts a new server in a new directory, with Tributary's own account made. */
    public static Prosody start() {
        try {
            Path dir = Files.createTempDirectory("tributary-prosody");
            Prosody prosody = new Prosody(dir, freePort());
            prosody.writeConfig();
            prosody.register(APP_USER, APP_SECRET);
            prosody.run();
            return prosody;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    /** Makes an account {@code user@localhost}. */
    public void register(String user, String password) {
        try {
            Process ctl = new ProcessBuilder("prosodyctl", "--config", config().toString(), "register", user, DOMAIN, password)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prosodyctl.log").toFile()).start();
            if (!ctl.waitFor(60, TimeUnit.SECONDS) || ctl.exitValue() != 0) {
                ctl.destroyForcibly();
                throw new IllegalStateException("prosodyctl register " + user + " failed: " + Files.readString(dir.resolve("prosodyctl.log")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Stops the server (SIGTERM, as an operator's restart does) and waits for it to be gone. */
    public void stop() {
        Process running = process;
        process = null;
        if (running == null) {
            return;
        }
        running.destroy();
        try {
            if (!running.waitFor(30, TimeUnit.SECONDS)) {
                running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the stopped server again, with the same data and port. */
    public void restart() {
        stop();
        run();
    }

    @Override
    public void close() {
        stop();
    }

    private void run() {
        try {
            process = new ProcessBuilder("prosody", "--config", config().toString(), "-F")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("prosody.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process started = process;
        Await.until("prosody listening on port " + port + " (log: " + dir.resolve("prosody.log") + ")", () -> {
            if (!started.isAlive()) {
                throw new IllegalStateException("prosody exited with " + started.exitValue() + ": "
                        + Files.readString(dir.resolve("prosody.log")));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return true;
            } catch (IOException refused) {
                return false;
            }
        });
    }

    private Path config() {
        return dir.resolve("prosody.cfg.lua");
    }

    private void writeConfig() throws IOException {
        Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(dir.resolve("certs"));
        Files.writeString(config(), String.join("\n",
                "-- Written by the test kit: a server of the test's own, on loopback, without TLS.",
                "run_as_root = true",
                "pidfile = \"" + dir.resolve("prosody.pid") + "\"",
                "data_path = \"" + dir.resolve("data") + "\"",
                "certificates = \"" + dir.resolve("certs") + "\"",
                "log = { { levels = { min = \"info\" }, to = \"console\" } }",
                "interfaces = { \"127.0.0.1\" }",
                "local_interfaces = { \"127.0.0.1\" }",
                "c2s_ports = { " + port + " }",
                "c2s_direct_tls_ports = { }",
                "legacy_ssl_ports = { }",
                "component_ports = { }",
                "s2s_ports = { }",
                "http_ports = { }",
                "https_ports = { }",
                "admins = { \"" + APP_USER + "@" + DOMAIN + "\" }",
                "modules_enabled = { \"roster\", \"saslauth\", \"disco\", \"ping\", \"offline\", \"posix\" }",
                "modules_disabled = { \"s2s\", \"tls\" }",
                "authentication = \"internal_hashed\"",
                "storage = \"internal\"",
                "c2s_require_encryption = false",
                "allow_unencrypted_plain_auth = true",
                "VirtualHost \"" + DOMAIN + "\"",
                "Component \"" + PUBSUB + "\" \"pubsub\"",
                "  pubsub_max_items = 1000",
                ""), StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static @Nullable Path find(String tool) {
        for (String entry : List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))) {
            Path candidate = Path.of(entry, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
