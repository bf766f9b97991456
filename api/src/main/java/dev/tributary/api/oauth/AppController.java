package dev.tributary.api.oauth;

import dev.tributary.api.web.NonBlank;
import dev.tributary.api.web.Scope;
import dev.tributary.api.web.ApiProblem;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** App registration for OAuth: open to anyone, as the app's users each consent before it acts for them. */
@RestController
class AppController {

    /** The client authentication methods an app may register, and so the ones the server advertises. */
    static final List<String> AUTH_METHODS = ClientAuthMethods.ALL;

    private final Apps apps;

    AppController(Apps apps) {
        this.apps = apps;
    }

    /** What an app's developer sends to register it. */
    record NewApp(
            @NotNull @NonBlank @Size(min = 1, max = 100, message = "must be 1 to 100 characters") String clientName,
            @NotNull @Size(min = 1, max = 10, message = "must hold 1 to 10 URIs") List<@NotNull @NonBlank String> redirectUris,
            @NotNull @Size(min = 1, max = 2, message = "must hold 'read', 'write' or both") List<String> scopes,
            @Nullable String tokenEndpointAuthMethod) {
    }

    /** A registered app; {@code client_secret} is shown here once, and is null for a public app. */
    record AppView(String clientId, @Nullable String clientSecret, String clientName, List<String> redirectUris,
            List<String> scopes, String tokenEndpointAuthMethod) {
    }

    @PostMapping("/api/v1/apps")
    @ResponseStatus(HttpStatus.CREATED)
    AppView register(@Valid @RequestBody NewApp request) {
        String name = name(request.clientName());
        List<String> uris = redirectUris(request.redirectUris());
        Set<Scope> scopes = scopes(request.scopes());
        String method = request.tokenEndpointAuthMethod() == null
                ? ClientAuthenticationMethod.CLIENT_SECRET_BASIC.getValue() : request.tokenEndpointAuthMethod();
        if (!AUTH_METHODS.contains(method)) {
            throw ApiProblem.invalid("token_endpoint_auth_method", "must be one of " + String.join(", ", AUTH_METHODS));
        }
        Apps.RegisteredApp app = apps.register(name, uris, scopes, new ClientAuthenticationMethod(method));
        return new AppView(app.client().getClientId(), app.secret(), name, uris,
                scopes.stream().sorted().map(Scope::wireName).toList(), method);
    }

    private static String name(String raw) {
        // Not blank: @NonBlank saw to it.
        String name = raw.strip();
        // The name is shown on the consent page: no control characters to garble or disguise it.
        if (name.codePoints().anyMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)) {
            throw ApiProblem.invalid("client_name", "must not contain control or formatting characters");
        }
        return name;
    }

    private static List<String> redirectUris(List<String> raw) {
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String field = "redirect_uris[" + i + "]";
            String uri = raw.get(i);
            RedirectUris.problem(uri).ifPresent(problem -> {
                throw ApiProblem.invalid(field, problem);
            });
            if (!uris.contains(uri)) {
                uris.add(uri);
            }
        }
        return uris;
    }

    private static Set<Scope> scopes(List<String> names) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : names) {
            scopes.add(Scope.parseForApp(name).orElseThrow(() -> ApiProblem.invalid("scopes", "may only hold 'read' and 'write'")));
        }
        return scopes;
    }
}
