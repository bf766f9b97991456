package dev.tributary.api.oauth;

import java.util.List;
import java.util.Map;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationServerMetadata;

/**
 * What {@code /.well-known/oauth-authorization-server} promises, cut to what an app can use: the
 * scopes it may ask for, the client authentication methods {@code POST /api/v1/apps} registers
 * ({@code none} for public clients included) and the two grants every app gets (public apps
 * refresh too, with single-use refresh tokens). Spring's defaults also
 * advertise client credentials, token exchange, DPoP, mTLS and JWT client authentication, which
 * no app registered here can use, so strict OAuth libraries picked them and failed.
 */
final class AdvertisedMetadata {

    static final List<String> SCOPES = List.of("read", "write");
    static final List<String> GRANTS = List.of("authorization_code", "refresh_token");

    private AdvertisedMetadata() {
    }

    static void customize(OAuth2AuthorizationServerMetadata.Builder metadata) {
        metadata.claims(AdvertisedMetadata::cut);
    }

    private static void cut(Map<String, Object> claims) {
        claims.put("scopes_supported", SCOPES);
        claims.put("grant_types_supported", GRANTS);
        for (String methods : List.of("token_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported",
                "introspection_endpoint_auth_methods_supported")) {
            claims.put(methods, AppController.AUTH_METHODS);
        }
        // RFC 9207: every redirect from the authorization endpoint names the issuer (IssuerInAuthorizationResponse).
        claims.put("authorization_response_iss_parameter_supported", true);
        // RFC 8414 wants an absolute URL: the issuer's, as every other endpoint in the metadata.
        claims.put("registration_endpoint", claims.get("issuer") + ClientRegistrationController.PATH);
        claims.remove("dpop_signing_alg_values_supported");
        claims.remove("tls_client_certificate_bound_access_tokens");
    }
}
