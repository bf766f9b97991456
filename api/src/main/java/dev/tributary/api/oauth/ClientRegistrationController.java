package dev.tributary.api.oauth;

import dev.tributary.api.web.Scope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * RFC 7591 dynamic client registration at {@value #PATH}, the {@code registration_endpoint} the
 * metadata advertises, for OAuth libraries that register themselves: the same apps, under the same
 * rules, as {@code POST /api/v1/apps}, spoken in RFC 7591's terms (a {@code scope} string, errors
 * as {@code {"error": "invalid_redirect_uri" | "invalid_client_metadata"}}). Metadata it does not
 * use ({@code logo_uri}, {@code contacts}…) is ignored, as the RFC allows, rather than refused.
 */
@RestController
class ClientRegistrationController {

    static final String PATH = "/oauth2/register";

    private final Apps apps;

    ClientRegistrationController(Apps apps) {
        this.apps = apps;
    }

    @PostMapping(path = PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> register(@RequestBody Map<String, Object> metadata) {
        try {
            return ResponseEntity.status(HttpStatus.CREATED).header("Cache-Control", "no-store").body(registered(metadata));
        } catch (Refused refused) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("error", refused.error);
            error.put("error_description", refused.getMessage());
            return ResponseEntity.badRequest().header("Cache-Control", "no-store").body(error);
        }
    }

    private Map<String, Object> registered(Map<String, Object> metadata) {
        String name = string(metadata, "client_name", "Tributary shows it on the consent page").strip();
        if (name.isEmpty() || name.length() > 100
                || name.codePoints().anyMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)) {
            throw new Refused("invalid_client_metadata", "client_name must be 1 to 100 characters, without control characters");
        }
        List<String> uris = redirectUris(metadata.get("redirect_uris"));
        Set<Scope> scopes = scopes(metadata.containsKey("scope") ? string(metadata, "scope", "") : "read");
        String method = metadata.containsKey("token_endpoint_auth_method") ? string(metadata, "token_endpoint_auth_method", "")
                : ClientAuthenticationMethod.CLIENT_SECRET_BASIC.getValue();
        if (!AppController.AUTH_METHODS.contains(method)) {
            throw new Refused("invalid_client_metadata", "token_endpoint_auth_method must be one of "
                    + String.join(", ", AppController.AUTH_METHODS));
        }
        subset(metadata, "grant_types", AdvertisedMetadata.GRANTS);
        subset(metadata, "response_types", List.of("code"));
        Apps.RegisteredApp app = apps.register(name, uris, scopes, new ClientAuthenticationMethod(method));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("client_id", app.client().getClientId());
        answer.put("client_id_issued_at", app.client().getClientIdIssuedAt() == null ? null
                : app.client().getClientIdIssuedAt().getEpochSecond());
        if (app.secret() != null) {
            answer.put("client_secret", app.secret());
            answer.put("client_secret_expires_at", 0);
        }
        answer.put("client_name", name);
        answer.put("redirect_uris", uris);
        answer.put("token_endpoint_auth_method", method);
        answer.put("grant_types", AdvertisedMetadata.GRANTS);
        answer.put("response_types", List.of("code"));
        answer.put("scope", String.join(" ", scopes.stream().sorted().map(Scope::wireName).toList()));
        return answer;
    }

    private static String string(Map<String, Object> metadata, String field, String why) {
        if (!(metadata.get(field) instanceof String value)) {
            throw new Refused("invalid_client_metadata", field + " is required, as a string" + (why.isEmpty() ? "" : ": " + why));
        }
        return value;
    }

    private static List<String> redirectUris(Object raw) {
        if (!(raw instanceof List<?> list) || list.isEmpty() || list.size() > 10) {
            throw new Refused("invalid_redirect_uri", "redirect_uris must be an array of 1 to 10 URIs");
        }
        List<String> uris = new ArrayList<>();
        for (Object entry : list) {
            if (!(entry instanceof String uri)) {
                throw new Refused("invalid_redirect_uri", "redirect_uris must hold strings");
            }
            RedirectUris.problem(uri).ifPresent(problem -> {
                throw new Refused("invalid_redirect_uri", "redirect URI " + uri + " " + problem);
            });
            if (!uris.contains(uri)) {
                uris.add(uri);
            }
        }
        return uris;
    }

    private static Set<Scope> scopes(String scope) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : Arrays.stream(scope.strip().split(" +")).filter(s -> !s.isEmpty()).toList()) {
            scopes.add(Scope.parseForApp(name).orElseThrow(() -> new Refused("invalid_client_metadata",
                    "scope may only hold 'read' and 'write', separated by spaces")));
        }
        if (scopes.isEmpty()) {
            throw new Refused("invalid_client_metadata", "scope must name 'read', 'write' or both");
        }
        return scopes;
    }

    private static void subset(Map<String, Object> metadata, String field, List<String> supported) {
        if (!metadata.containsKey(field)) {
            return;
        }
        if (!(metadata.get(field) instanceof List<?> values) || !supported.containsAll(values)) {
            throw new Refused("invalid_client_metadata", field + " may only hold " + String.join(", ", supported));
        }
    }

    /** A registration refused with one of RFC 7591's error codes. */
    private static final class Refused extends RuntimeException {

        private final String error;

        Refused(String error, String description) {
            super(description, null, false, false);
            this.error = error;
        }
    }
}
