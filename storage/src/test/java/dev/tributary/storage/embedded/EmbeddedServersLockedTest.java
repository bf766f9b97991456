package dev.tributary.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.StorageTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The embedded stores are locked to the app (issue 52, breaks 1, 2 and 6): another OS-level client
 * on the host, without the generated credentials, is refused by both; the app's own account cannot
 * reach the file system; the secrets and the socket are owner-only; a killed server comes back.
 */
@SpringBootTest(classes = StorageTestApplication.class)
class EmbeddedServersLockedTest {

    private static final Duration BACK_WITHIN = Duration.ofMinutes(2);

    @Autowired
    DataSource dataSource;

    @Value("${spring.datasource.url}")
    String jdbcUrl;

    @Value("${spring.data.redis.url}")
    String redisUrl;

    @Value("${tributary.embedded.data-dir}")
    Path dataDir;

    @Test
    void mariaDbRefusesEveryoneWithoutTheGeneratedPassword() {
        EmbeddedCredentials credentials = EmbeddedCredentials.inDirectory(dataDir);
        for (String user : List.of("root", credentials.mariaDbUser(), "", "mysql", "mariadb.sys")) {
            for (String password : List.of("", "wrong", "root")) {
                assertThatThrownBy(() -> connect(user, password).close()).as("%s / '%s'", user, password)
                        .isInstanceOf(SQLException.class).hasMessageContaining("Access denied");
            }
        }
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(jdbc.queryForObject("SELECT CURRENT_USER()", String.class)).isEqualTo(credentials.mariaDbUser() + "@127.0.0.1");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.user_privileges WHERE PRIVILEGE_TYPE IN ('FILE', 'SUPER', 'SHUTDOWN')",
                Integer.class)).as("no file, super or shutdown privilege").isZero();
    }

    @Test
    void theAppsOwnAccountCannotReadOrWriteFiles() throws Exception {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(jdbc.queryForObject("SELECT LOAD_FILE('/etc/passwd')", String.class)).isNull();
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "tributary-outfile-" + ProcessHandle.current().pid());
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute("SELECT 'owned' INTO OUTFILE '" + target + "'"))
                    .isInstanceOf(SQLException.class);
        }
        assertThat(Files.exists(target)).isFalse();
        assertThat(jdbc.queryForObject("SELECT @@secure_file_priv", String.class)).startsWith(dataDir.toAbsolutePath().normalize().toString());
        assertThat(jdbc.queryForObject("SELECT @@skip_grant_tables", Integer.class)).isZero();
    }

    @Test
    void theSecretsTheSocketAndTheDataAreOwnerOnly() throws Exception {
        Path home = dataDir.toAbsolutePath().normalize();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(EmbeddedCredentials.FILE)))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("mariadb")))).isEqualTo("rwx------");
        String socket = new JdbcTemplate(dataSource).queryForObject("SELECT @@socket", String.class);
        Path socketDirectory = Path.of(socket).getParent();
        assertThat(socket).doesNotStartWith(System.getProperty("java.io.tmpdir") + "/mysql");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socketDirectory))).isEqualTo("rwx------");
        assertThat(Files.readString(home.resolve(EmbeddedCredentials.FILE))).doesNotContain("root");
    }

    @Test
    void redisRefusesClientsWithoutThePasswordAndKnowsNoConfigCommand() {
        EmbeddedCredentials credentials = EmbeddedCredentials.inDirectory(dataDir);
        int port = URI.create(redisUrl).getPort();
        try (RespConnection anonymous = new RespConnection(port)) {
            assertThatThrownBy(() -> anonymous.call("GET", "tributary:session:x")).hasMessageContaining("NOAUTH");
            assertThatThrownBy(() -> anonymous.call("CONFIG", "SET", "dir", "/etc")).hasMessageMatching("(?s).*(NOAUTH|unknown command).*");
            assertThatThrownBy(() -> anonymous.call("AUTH", "wrong")).hasMessageContaining("WRONGPASS");
        }
        try (RespConnection app = new RespConnection(port, credentials.redisPassword())) {
            for (String command : List.of("CONFIG", "DEBUG", "MODULE")) {
                assertThatThrownBy(() -> app.call(command, "HELP")).as(command).hasMessageContaining("unknown command");
            }
            assertThat(app.call(credentials.redisAdminCommand("CONFIG"), "GET", "protected-mode")).asString().contains("yes");
            assertThat(app.call(credentials.redisAdminCommand("CONFIG"), "GET", "bind")).asString().contains("127.0.0.1");
        }
    }

    @Test
    void aKilledRedisAndAKilledMariaDbAreStartedAgain() throws Exception {
        EmbeddedCredentials credentials = EmbeddedCredentials.inDirectory(dataDir);
        int redisPort = URI.create(redisUrl).getPort();
        long redisPid;
        try (RespConnection app = new RespConnection(redisPort, credentials.redisPassword())) {
            // Redis rewrites its own command line; it tells its process id instead.
            redisPid = Long.parseLong(((String) app.call("INFO", "server")).replaceAll("(?s).*process_id:(\\d+).*", "$1"));
        }
        kill(ProcessHandle.of(redisPid).orElseThrow(), redisPort);
        Await.until("Redis back on " + redisPort, BACK_WITHIN, () -> {
            try (RespConnection app = new RespConnection(redisPort, credentials.redisPassword())) {
                return "PONG".equals(app.call("PING"));
            } catch (RuntimeException e) {
                return false;
            }
        });

        int mariaDbPort = Integer.parseInt(jdbcUrl.replaceAll("^jdbc:mysql://127\\.0\\.0\\.1:(\\d+)/.*$", "$1"));
        new JdbcTemplate(dataSource).execute("CREATE TABLE IF NOT EXISTS survives_kill (v INT)");
        new JdbcTemplate(dataSource).update("INSERT INTO survives_kill VALUES (7)");
        kill(child("mariadbd", mariaDbPort), mariaDbPort);
        Await.until("MariaDB back on " + mariaDbPort, BACK_WITHIN, () -> {
            try (Connection connection = connect(credentials.mariaDbUser(), credentials.mariaDbPassword())) {
                return connection.isValid(2);
            } catch (SQLException e) {
                return false;
            }
        });
        assertThat(new JdbcTemplate(dataSource).queryForObject("SELECT SUM(v) FROM survives_kill", Integer.class))
                .as("committed rows survive the kill").isEqualTo(7);
        new JdbcTemplate(dataSource).execute("DROP TABLE survives_kill");
    }

    /** The child process of this JVM that runs that server on that port. */
    private static ProcessHandle child(String executable, int port) {
        Optional<ProcessHandle> server = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains(executable))
                .filter(p -> p.info().commandLine().orElse("").contains(Integer.toString(port)))
                .findFirst();
        assertThat(server).as("%s on port %d among this JVM's children: %s", executable, port, ProcessHandle.current().descendants()
                .map(p -> p.pid() + " " + p.info().command().orElse("?") + " / " + p.info().commandLine().orElse("?")).toList()).isPresent();
        return server.get();
    }

    /** SIGKILL, as {@code kill -9} would. */
    private static void kill(ProcessHandle server, int port) {
        assertThat(server.destroyForcibly()).isTrue();
        Await.until(server.info().command().orElse("server") + " gone", () -> !server.isAlive());
    }

    private Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection(jdbcUrl + "&connectTimeout=2000", user, password);
    }
}
