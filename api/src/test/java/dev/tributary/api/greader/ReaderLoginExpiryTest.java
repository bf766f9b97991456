package dev.tributary.api.greader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/** An Auth value issued for a password ends after 30 days unused; use keeps it alive. */
@ApiTest
class ReaderLoginExpiryTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    private ApiClient api;
    private ReaderClient reader;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
    }

    @Test
    void aPasswordAuthUnusedForThirtyDaysIsRefused() {
        TestUser erin = api.newUser("rl");
        String auth = reader.login(erin.username(), erin.password());
        lastUsed(auth, Instant.now().minus(Duration.ofDays(30)).minus(Duration.ofMinutes(5)));

        assertThat(reader.get("/reader/api/0/user-info", auth).status()).isEqualTo(401);
        assertThat(reader.get("/reader/api/0/user-info", auth).status()).as("and stays refused").isEqualTo(401);
        assertThat(reader.get("/reader/api/0/user-info", reader.login(erin.username(), erin.password())).status())
                .as("signing in again works").isEqualTo(200);
    }

    @Test
    void usingAPasswordAuthKeepsItAlive() {
        TestUser fay = api.newUser("rl");
        String auth = reader.login(fay.username(), fay.password());
        Instant longAgo = Instant.now().minus(Duration.ofDays(29));
        lastUsed(auth, longAgo);

        assertThat(reader.get("/reader/api/0/user-info", auth).status()).isEqualTo(200);

        Instant recorded = jdbc.sql("SELECT last_used_at FROM reader_logins WHERE auth_hash = :hash")
                .param("hash", ReaderLogins.sha256(auth)).query(Timestamp.class).single().toInstant();
        assertThat(recorded).isAfter(longAgo.plus(Duration.ofDays(28)));
    }

    @Test
    void aTokenAuthIsBoundByItsTokenNotByIdleTime() {
        TestUser gus = api.newUser("rl");
        String auth = reader.login(gus.username(), gus.token());
        lastUsed(auth, Instant.now().minus(Duration.ofDays(90)));

        assertThat(reader.get("/reader/api/0/user-info", auth).status()).isEqualTo(200);
    }

    private void lastUsed(String auth, Instant when) {
        int rows = jdbc.sql("UPDATE reader_logins SET last_used_at = :at WHERE auth_hash = :hash")
                .param("at", Timestamp.from(when)).param("hash", ReaderLogins.sha256(auth)).update();
        assertThat(rows).isEqualTo(1);
    }
}
