package dev.tributary.api.token;

import dev.tributary.api.web.NonBlank;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Scope;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Account;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Personal access tokens: created with the account's password (HTTP Basic), listed and revoked
 * with the session or a personal token holding {@code account} (never an app's token).
 */
@RestController
@RequestMapping("/api/v1/tokens")
class TokenController {

    /** What a Fever app does: read, and mark items read, unread, saved. */
    private static final Set<Scope> FEVER_SCOPES = EnumSet.of(Scope.READ, Scope.WRITE);

    private final PersonalTokens tokens;
    private final PersonalTokenAuthenticator authenticator;

    TokenController(PersonalTokens tokens, PersonalTokenAuthenticator authenticator) {
        this.tokens = tokens;
        this.authenticator = authenticator;
    }

    /** What a client sends to create a token. */
    record NewToken(@NotNull @NonBlank @Size(max = 100) String name, @NotNull @Size(min = 1, max = 3) List<String> scopes,
            @Nullable Boolean fever) {
    }

    /** A new token: the secret appears here once and never again; {@code fever}: it also signs in Fever apps. */
    record CreatedToken(String id, String name, String token, List<String> scopes, Instant createdAt, boolean fever) {
    }

    /** A token as listed (no secret); {@code fever}: it also signs in Fever apps. */
    record TokenView(String id, String name, List<String> scopes, Instant createdAt, boolean fever) {
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    CreatedToken create(@Valid @RequestBody NewToken request, HttpServletRequest http) {
        // Signed in by BasicLoginFirst before the body was read or validated.
        StoredAccount account = BasicLoginFirst.account(http);
        Set<Scope> scopes = scopes(request.scopes());
        if (Boolean.TRUE.equals(request.fever()) && !scopes.containsAll(FEVER_SCOPES)) {
            // A Fever app has no way to show an error for a refused mark: a key that could only
            // read would take marks and drop them silently, so none is made.
            throw ApiProblem.unprocessable("fever-needs-write", "fever_needs_read_and_write",
                    "A token that signs in Fever apps needs the scopes 'read' and 'write': Fever apps mark items read and saved.");
        }
        IssuedToken issued = tokens.create(account.id(), request.name().strip(), scopes,
                Boolean.TRUE.equals(request.fever()) ? account.body().username() : null);
        return new CreatedToken(Ids.format(issued.token().id()), issued.token().name(), issued.secret(),
                wire(issued.token().scopes()), issued.token().createdAt(), issued.token().fever());
    }

    @GetMapping
    List<TokenView> list(Caller caller) {
        return tokens.of(caller.userId()).stream()
                .map(t -> new TokenView(Ids.format(t.id()), t.name(), wire(t.scopes()), t.createdAt(), t.fever()))
                .toList();
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void revoke(Caller caller, @PathVariable String id) {
        byte[] hash = tokens.revoke(caller.userId(), Ids.path(id, "token"))
                .orElseThrow(() -> ApiProblem.notFound("token"));
        authenticator.revoked(hash);
    }

    private static Set<Scope> scopes(List<String> names) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : names) {
            scopes.add(Scope.parse(name).orElseThrow(() -> ApiProblem.invalid("scopes", "may only hold 'read', 'write' and 'account'")));
        }
        return scopes;
    }

    private static List<String> wire(Set<Scope> scopes) {
        return scopes.stream().sorted().map(Scope::wireName).toList();
    }
}
