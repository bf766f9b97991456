package dev.tributary.api.greader;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.security.LoginRefusedException;
import dev.tributary.api.security.PasswordLogin;
import dev.tributary.api.token.PersonalToken;
import dev.tributary.api.token.PersonalTokens;
import dev.tributary.api.web.ApiProblem;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Google Reader sign-in ({@code POST /accounts/ClientLogin}): {@code Email} is the username,
 * {@code Passwd} a personal access token (recommended: scoped and revocable) or the account
 * password (throttled like every password login). Answers {@code SID=…\nLSID=…\nAuth=…} (JSON with
 * {@code output=json}); a refusal is a 401 {@code Error=BadAuthentication}, as the apps expect.
 */
@RestController
class ClientLoginController {

    private static final int MAX_FIELD = 1000;

    private final PersonalTokens tokens;
    private final PasswordLogin passwords;
    private final Accounts accounts;
    private final ReaderLogins logins;

    ClientLoginController(PersonalTokens tokens, PasswordLogin passwords, Accounts accounts, ReaderLogins logins) {
        this.tokens = tokens;
        this.passwords = passwords;
        this.accounts = accounts;
        this.logins = logins;
    }

    @PostMapping("/accounts/ClientLogin")
    ResponseEntity<?> login(@RequestParam(name = "Email", required = false) @Nullable String email,
            @RequestParam(name = "Passwd", required = false) @Nullable String password,
            @RequestParam(name = "output", required = false) @Nullable String output, HttpServletRequest request) {
        if (email == null || password == null || email.isBlank() || password.isEmpty()
                || email.length() > MAX_FIELD || password.length() > MAX_FIELD) {
            return refused();
        }
        Optional<String> auth;
        try {
            auth = password.startsWith(PersonalTokens.PREFIX) ? byToken(email.strip(), password.strip())
                    : Optional.of(byPassword(email.strip(), password, request.getRemoteAddr()));
        } catch (LoginRefusedException refused) {
            if (refused.retryAfter() != null) {
                throw ApiProblem.tooManyRequests(refused.getMessage(), refused.retryAfter().toSeconds() + 1);
            }
            return refused();
        }
        if (auth.isEmpty()) {
            return refused();
        }
        if ("json".equals(output)) {
            Map<String, String> answer = new LinkedHashMap<>();
            answer.put("SID", auth.get());
            answer.put("LSID", auth.get());
            answer.put("Auth", auth.get());
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
        }
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN)
                .body("SID=" + auth.get() + "\nLSID=" + auth.get() + "\nAuth=" + auth.get() + "\n");
    }

    /** A token signs in only the person it belongs to. */
    private Optional<String> byToken(String username, String secret) {
        Optional<PersonalToken> token = tokens.findBySecret(secret);
        Optional<StoredAccount> owner = token.flatMap(t -> accounts.find(t.userId()));
        if (owner.isEmpty() || !owner.get().body().username().equals(username.toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        return Optional.of(logins.forToken(token.get().userId(), token.get().id()));
    }

    private String byPassword(String username, String password, String address) {
        StoredAccount account = passwords.authenticate(username, password, address);
        return logins.forPassword(account.id(), account.body().passwordHash());
    }

    private static ResponseEntity<String> refused() {
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED).contentType(MediaType.TEXT_PLAIN)
                .body("Error=BadAuthentication\n");
    }
}
