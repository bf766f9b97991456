package dev.tributary.api.oauth;

import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Scope;
import dev.tributary.api.web.ApiProblem;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The caller's authorised apps, and withdrawing one (every token it holds for the caller stops working). */
@RestController
class AuthorizationController {

    private final AuthorizedApps apps;

    AuthorizationController(AuthorizedApps apps) {
        this.apps = apps;
    }

    /** An app the caller has authorised, with the scopes they allowed it. */
    record AuthorizationView(String clientId, String clientName, List<String> scopes, Instant authorisedAt) {
    }

    @GetMapping("/api/v1/authorizations")
    List<AuthorizationView> list(Caller caller) {
        return apps.of(caller.userId()).stream()
                .map(a -> new AuthorizationView(a.clientId(), a.clientName(),
                        a.scopes().stream().sorted().map(Scope::wireName).toList(), a.authorisedAt()))
                .toList();
    }

    @DeleteMapping("/api/v1/authorizations/{client_id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void withdraw(Caller caller, @PathVariable("client_id") String clientId) {
        if (clientId.length() > 100 || !apps.withdraw(caller.userId(), clientId)) {
            throw ApiProblem.notFound("authorization");
        }
    }
}
