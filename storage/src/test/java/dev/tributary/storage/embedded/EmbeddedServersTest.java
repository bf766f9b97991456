package dev.tributary.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

import javax.sql.DataSource;

import dev.tributary.storage.testing.StorageTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

@SpringBootTest(classes = StorageTestApplication.class)
class EmbeddedServersTest {

    @Autowired
    DataSource dataSource;

    @Value("${spring.datasource.url}")
    String jdbcUrl;

    @Value("${spring.data.redis.url}")
    String redisUrl;

    @Test
    void mariaDbIsARealServerOnLoopbackWithTheTributarySchema() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(jdbcUrl).startsWith("jdbc:mysql://127.0.0.1:").contains("/tributary?");
        assertThat(jdbc.queryForObject("SELECT VERSION()", String.class)).contains("MariaDB").startsWith("11.4");
        assertThat(jdbc.queryForObject("SELECT DATABASE()", String.class)).isEqualTo("tributary");
        assertThat(jdbc.queryForObject("SELECT @@bind_address", String.class)).isEqualTo("127.0.0.1");
        assertThat(jdbc.queryForObject("SELECT @@character_set_server", String.class)).isEqualTo("utf8mb4");
    }

    @Test
    void redisAnswersOnLoopbackOnlyToTheAppsPassword() throws Exception {
        URI uri = URI.create(redisUrl);
        assertThat(uri.getHost()).isEqualTo("127.0.0.1");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2_000);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("PING\r\n".getBytes());
            byte[] reply = socket.getInputStream().readNBytes(7);
            assertThat(new String(reply)).isEqualTo("-NOAUTH");
        }
        try (RespConnection app = new RespConnection(uri.getPort(), uri.getUserInfo().substring(1))) {
            assertThat(app.call("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void flywayCreatedItsHistoryTable() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        Integer applied = jdbc.queryForObject(
                "SELECT COUNT(*) FROM flyway_schema_history WHERE success = 1", Integer.class);
        assertThat(applied).isPositive();
    }
}
