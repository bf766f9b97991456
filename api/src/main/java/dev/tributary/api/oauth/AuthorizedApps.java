package dev.tributary.api.oauth;

import dev.tributary.api.web.Scope;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationCode;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The apps a person has authorised (their consents) and withdrawing one: its consent and every
 * grant go, and each grant's access tokens are refused at once. Keyed by the person (the
 * authorization server's principal name is their id), so nobody reaches another's.
 */
@Repository
public class AuthorizedApps {

    /** An app a person has let act for them. */
    record AuthorizedApp(String clientId, String clientName, Set<Scope> scopes, Instant authorisedAt) {
    }

    private final JdbcClient jdbc;
    private final RevokedTokens revoked;
    private final OAuthSettings settings;
    private final OAuth2AuthorizationService grants;
    private final Clock clock;

    AuthorizedApps(JdbcClient jdbc, RevokedTokens revoked, OAuthSettings settings, OAuth2AuthorizationService grants) {
        this.jdbc = jdbc;
        this.revoked = revoked;
        this.settings = settings;
        this.grants = grants;
        this.clock = Clock.systemUTC();
    }

    /**
     * The person's authorised apps that can still act for them, most recently authorised first.
     * Revoked grants stay stored until their tokens expire (the deny-list is rebuilt from them), so
     * a consent alone says nothing: an app is listed only while one of its grants is live.
     */
    List<AuthorizedApp> of(long userId) {
        String person = Long.toString(userId);
        Set<String> live = appsWithALiveGrant(person);
        return jdbc.sql("""
                SELECT r.client_id, r.client_name, c.authorities, c.authorised_at
                FROM oauth2_authorization_consent c JOIN oauth2_registered_client r ON r.id = c.registered_client_id
                WHERE c.principal_name = :person
                ORDER BY c.authorised_at DESC, r.client_id
                """).param("person", person)
                .query((rs, n) -> new AuthorizedApp(rs.getString(1), rs.getString(2), scopes(rs.getString(3)),
                        rs.getTimestamp(4).toInstant()))
                .list().stream().filter(app -> live.contains(app.clientId())).toList();
    }

    /**
     * The client ids with a grant of the person's holding a code, access or refresh token that is
     * neither revoked nor expired. Whether a token was revoked is in its metadata, which only the
     * authorization service reads back; the expiry columns leave out the grants that are plainly over.
     */
    private Set<String> appsWithALiveGrant(String person) {
        Timestamp now = Timestamp.from(clock.instant());
        Set<String> live = new HashSet<>();
        jdbc.sql("""
                SELECT a.id, r.client_id FROM oauth2_authorization a JOIN oauth2_registered_client r ON r.id = a.registered_client_id
                WHERE a.principal_name = :person
                  AND (a.refresh_token_expires_at > :now OR a.access_token_expires_at > :now
                       OR a.authorization_code_expires_at > :now)
                """).param("person", person).param("now", now)
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getString(2))).list()
                .forEach(grant -> {
                    if (!live.contains(grant.getValue()) && isLive(grants.findById(grant.getKey()))) {
                        live.add(grant.getValue());
                    }
                });
        return live;
    }

    private static boolean isLive(@Nullable OAuth2Authorization grant) {
        return grant != null && (isActive(grant.getRefreshToken()) || isActive(grant.getAccessToken())
                || isActive(grant.getToken(OAuth2AuthorizationCode.class)));
    }

    private static boolean isActive(OAuth2Authorization.@Nullable Token<?> token) {
        return token != null && token.isActive();
    }

    /** Withdraws the app's consent and grants; false if the person had neither. */
    @Transactional
    boolean withdraw(long userId, String clientId) {
        String person = Long.toString(userId);
        List<String> grants = jdbc.sql("""
                SELECT a.id FROM oauth2_authorization a JOIN oauth2_registered_client r ON r.id = a.registered_client_id
                WHERE a.principal_name = :person AND r.client_id = :client FOR UPDATE
                """).param("person", person).param("client", clientId).query(String.class).list();
        // Refused before they are deleted: a failure between the two leaves tokens refused, never alive.
        Instant latestExpiry = clock.instant().plus(settings.accessTokenTtl());
        grants.forEach(grant -> revoked.revokeGrant(person, grant, latestExpiry));
        int deleted = jdbc.sql("""
                DELETE a FROM oauth2_authorization a JOIN oauth2_registered_client r ON r.id = a.registered_client_id
                WHERE a.principal_name = :person AND r.client_id = :client
                """).param("person", person).param("client", clientId).update();
        int consents = jdbc.sql("""
                DELETE c FROM oauth2_authorization_consent c JOIN oauth2_registered_client r ON r.id = c.registered_client_id
                WHERE c.principal_name = :person AND r.client_id = :client
                """).param("person", person).param("client", clientId).update();
        return deleted + consents > 0;
    }

    /** Withdraws every app the person authorised, as {@link #withdraw} does one; returns how many. */
    @Transactional
    public int withdrawAll(long userId) {
        String person = Long.toString(userId);
        List<String> clients = jdbc.sql("""
                SELECT r.client_id FROM oauth2_authorization a JOIN oauth2_registered_client r ON r.id = a.registered_client_id
                WHERE a.principal_name = :person
                UNION
                SELECT r.client_id FROM oauth2_authorization_consent c JOIN oauth2_registered_client r ON r.id = c.registered_client_id
                WHERE c.principal_name = :person
                """).param("person", person).query(String.class).list();
        clients.forEach(client -> withdraw(userId, client));
        return clients.size();
    }

    private static Set<Scope> scopes(String authorities) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        Arrays.stream(authorities.split(",")).map(String::strip)
                .filter(a -> a.startsWith("SCOPE_")).map(a -> a.substring("SCOPE_".length()))
                .map(Scope::parseForApp).flatMap(java.util.Optional::stream).forEach(scopes::add);
        return scopes;
    }
}
