package dev.tributary.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** A non-ephemeral embedded MariaDB keeps its data across a stop and a start, and leaves no process. */
class EmbeddedMariaDbRestartTest {

    private String user;
    private String password;

    @Test
    void dataSurvivesARestartAndTheServerIsGoneAfterStop() throws Exception {
        Path dataDir = Files.createDirectories(Path.of("target", "restart-test-" + ProcessHandle.current().pid()));
        EmbeddedSettings settings = new EmbeddedSettings(dataDir, false, Duration.ofSeconds(120), "restart_test", EmbeddedSettings.RedisKind.SINGLE,
                DataSize.ofMegabytes(256), Duration.ofSeconds(2));
        EmbeddedCredentials credentials = EmbeddedCredentials.inDirectory(dataDir);
        user = credentials.mariaDbUser();
        password = credentials.mariaDbPassword();
        try {
            EmbeddedMariaDb first = new EmbeddedMariaDb(settings, credentials);
            first.start();
            execute(first.jdbcUrl(), "CREATE TABLE kept (v VARCHAR(20))", "INSERT INTO kept VALUES ('still here')");
            first.stop();
            assertThatThrownBy(() -> execute(first.jdbcUrl(), "SELECT 1")).isInstanceOf(SQLException.class);
            assertThat(portAnswers(first.jdbcUrl())).isFalse();

            EmbeddedMariaDb second = new EmbeddedMariaDb(settings, credentials);
            second.start();
            try (Connection connection = DriverManager.getConnection(second.jdbcUrl(), user, password);
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT v, @@innodb_buffer_pool_size FROM kept")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("still here");
                assertThat(rows.getLong(2)).as("tributary.embedded.buffer-pool").isEqualTo(DataSize.ofMegabytes(256).toBytes());
            } finally {
                second.stop();
            }
        } finally {
            new EmbeddedMariaDb(new EmbeddedSettings(dataDir, true, Duration.ofSeconds(1), "x", EmbeddedSettings.RedisKind.SINGLE,
                    DataSize.ofMegabytes(128), Duration.ofSeconds(2)), credentials).stop();
        }
    }

    private void execute(String url, String... statements) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url + "&connectTimeout=2000", user, password);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static boolean portAnswers(String jdbcUrl) {
        int port = Integer.parseInt(jdbcUrl.replaceAll("^jdbc:mysql://127\\.0\\.0\\.1:(\\d+)/.*$", "$1"));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
