package dev.tributary.api.account;

import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tributary.pubsub.UsernameTakenException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Registration, and the caller's own account ({@code /me}). */
@RestController
class AccountController {

    private final Accounts accounts;

    AccountController(Accounts accounts) {
        this.accounts = accounts;
    }

    /** What a person sends to register. */
    record Registration(
            @NotNull @Pattern(regexp = Usernames.REGEX, message = "must be 3 to 30 of a-z, 0-9 and _") String username,
            @NotNull @Size(min = 8, max = 72, message = "must be 8 to 72 characters") String password,
            @Nullable @Email @Size(min = 3, max = 254) String email) {
    }

    /** A registered account as others may see it. */
    record AccountView(String id, String username, Instant createdAt) {
    }

    /**
     * The caller's own account. {@code feed_token}, the secret of the private feed url, is in the
     * answer to making one only ({@code POST /api/v1/me/feed_token}, which an app may not call):
     * only its hash is kept, so it cannot be shown again.
     */
    record MeView(String id, String username, Instant createdAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String feedToken) {
    }

    @PostMapping("/api/v1/accounts")
    @ResponseStatus(HttpStatus.CREATED)
    AccountView register(@Valid @RequestBody Registration registration) {
        if (!PasswordRules.fitsBcrypt(registration.password())) {
            throw ApiProblem.invalid("password", PasswordRules.TOO_LONG);
        }
        try {
            StoredAccount account = accounts.register(registration.username(), registration.password(), registration.email());
            return new AccountView(Ids.format(account.id()), account.body().username(), account.body().createdAt());
        } catch (UsernameTakenException taken) {
            throw ApiProblem.conflict(taken.getMessage());
        }
    }

    @GetMapping("/api/v1/me")
    MeView me(Caller caller) {
        StoredAccount account = accounts.find(caller.userId()).orElseThrow(() -> ApiProblem.notFound("account"));
        if (caller.credential().firstParty()) {
            // Its owner is here: a feed token still kept in clear from before is hashed now.
            account = accounts.hashFeedTokenIfClear(account);
        }
        return me(account, null);
    }

    /** Makes a new private feed url's secret, shown this once; the old url stops working at once. */
    @PostMapping("/api/v1/me/feed_token")
    MeView rotateFeedToken(Caller caller) {
        if (!caller.credential().firstParty()) {
            // The account scope already keeps apps out; this keeps the secret from one if that ever changes.
            throw ApiProblem.forbidden("only the person themselves may make a private feed url");
        }
        Accounts.NewFeedToken made = accounts.rotateFeedToken(caller.userId());
        return me(made.account(), made.token());
    }

    private static MeView me(StoredAccount account, @Nullable String feedToken) {
        return new MeView(Ids.format(account.id()), account.body().username(), account.body().createdAt(), feedToken);
    }
}
