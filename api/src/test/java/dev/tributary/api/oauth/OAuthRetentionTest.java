package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The OAuth retention jobs: expired grants go, then apps nobody used for 90 days; what is in use stays. */
@ApiTest
class OAuthRetentionTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    @Autowired ExpiredAuthorizations authorizations;
    @Autowired UnusedApps apps;

    @Test
    void aGrantWhoseTokensExpiredLongAgoIsRemovedAndALiveOneStays() {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser alice = flow.api().newUser("retain");
        OAuthFlow.App old = flow.registerApp("client_secret_basic", "read");
        OAuthFlow.App current = flow.registerApp("client_secret_basic", "read");
        flow.authorize(alice, old, "read");
        flow.authorize(alice, current, "read");
        age(old.clientId(), 40); // past the 30-day refresh token and the grace

        long removed = authorizations.sweep(count -> { });

        assertThat(grants(old.clientId())).isZero();
        assertThat(grants(current.clientId())).isEqualTo(1);
        assertThat(removed).isGreaterThanOrEqualTo(1);
        assertThat(authorizations.sweep(count -> { })).as("nothing left to remove").isZero();
    }

    @Test
    void aGrantExpiredWithinTheGraceIsKept() {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser alice = flow.api().newUser("grace");
        OAuthFlow.App app = flow.registerApp("client_secret_basic", "read");
        flow.authorize(alice, app, "read");
        jdbc.sql("""
                UPDATE oauth2_authorization SET access_token_expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR,
                    refresh_token_expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR WHERE registered_client_id = ?""")
                .param(app.clientId()).update();

        authorizations.sweep(count -> { });

        assertThat(grants(app.clientId())).as("expired an hour ago, grace is a day").isEqualTo(1);
    }

    @Test
    void anAppUnusedForNinetyDaysIsRemovedWithItsConsentsAndAnAppInUseStays() {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser alice = flow.api().newUser("apps");
        OAuthFlow.App unused = flow.registerApp("client_secret_basic", "read");
        OAuthFlow.App neverAuthorised = flow.registerApp("none", "read");
        OAuthFlow.App oldButInUse = flow.registerApp("client_secret_basic", "read");
        OAuthFlow.App fresh = flow.registerApp("none", "read");
        flow.authorize(alice, unused, "read");
        flow.authorize(alice, oldButInUse, "read");
        age(unused.clientId(), 100);
        age(neverAuthorised.clientId(), 100);
        jdbc.sql("UPDATE oauth2_registered_client SET client_id_issued_at = client_id_issued_at - INTERVAL 100 DAY WHERE id = ?")
                .param(oldButInUse.clientId()).update();

        long removed = apps.sweep(count -> { });

        assertThat(app(unused.clientId())).isZero();
        assertThat(grants(unused.clientId())).isZero();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM oauth2_authorization_consent WHERE registered_client_id = ?")
                .param(unused.clientId()).query(Long.class).single()).isZero();
        assertThat(app(neverAuthorised.clientId())).isZero();
        assertThat(app(oldButInUse.clientId())).as("its grant was issued today").isEqualTo(1);
        assertThat(app(fresh.clientId())).isEqualTo(1);
        assertThat(removed).isGreaterThanOrEqualTo(2);
        assertThat(flow.api().get("/api/v1/authorizations", alice.token()).body()).doesNotContain(unused.clientId());
    }

    /** Moves an app's registration, grants and consents this many days into the past. */
    private void age(String clientId, int days) {
        jdbc.sql("UPDATE oauth2_registered_client SET client_id_issued_at = client_id_issued_at - INTERVAL ? DAY WHERE id = ?")
                .params(days, clientId).update();
        jdbc.sql("UPDATE oauth2_authorization_consent SET authorised_at = authorised_at - INTERVAL ? DAY WHERE registered_client_id = ?")
                .params(days, clientId).update();
        jdbc.sql("""
                UPDATE oauth2_authorization SET created_at = created_at - INTERVAL :d DAY,
                    authorization_code_issued_at = authorization_code_issued_at - INTERVAL :d DAY,
                    authorization_code_expires_at = authorization_code_expires_at - INTERVAL :d DAY,
                    access_token_issued_at = access_token_issued_at - INTERVAL :d DAY,
                    access_token_expires_at = access_token_expires_at - INTERVAL :d DAY,
                    refresh_token_issued_at = refresh_token_issued_at - INTERVAL :d DAY,
                    refresh_token_expires_at = refresh_token_expires_at - INTERVAL :d DAY
                WHERE registered_client_id = :c""").param("d", days).param("c", clientId).update();
    }

    private long grants(String clientId) {
        return jdbc.sql("SELECT COUNT(*) FROM oauth2_authorization WHERE registered_client_id = ?").param(clientId).query(Long.class).single();
    }

    private long app(String clientId) {
        return jdbc.sql("SELECT COUNT(*) FROM oauth2_registered_client WHERE id = ?").param(clientId).query(Long.class).single();
    }
}
