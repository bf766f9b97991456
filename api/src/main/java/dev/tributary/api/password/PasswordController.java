package dev.tributary.api.password;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.PasswordRules;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.security.LoginRefusedException;
import dev.tributary.api.security.PasswordLogin;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Credential;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Changing one's password ({@code POST /api/v1/me/password}). The current password is checked
 * like a sign-in (and throttled with it); the change ends what the old password opened: the
 * person's other browser sessions (and their live streams), Google Reader logins made with it, and
 * push to a linked XMPP address (unlinked, what was waiting for it dropped).
 * Personal tokens and app grants stay: they were issued deliberately and are revoked one by one,
 * or all at once with everything else by signing out everywhere ({@code POST /api/v1/me/sessions/revoke}).
 */
@RestController
class PasswordController {

    private final Accounts accounts;
    private final PasswordLogin login;
    private final AccountSignOut signOut;

    PasswordController(Accounts accounts, PasswordLogin login, AccountSignOut signOut) {
        this.accounts = accounts;
        this.login = login;
        this.signOut = signOut;
    }

    /** What a person sends to change their password; the new one is held to sign-up's rules. */
    record PasswordChange(
            @NotNull @Size(max = 1000) String currentPassword,
            @NotNull @Size(min = 8, max = 72, message = "must be 8 to 72 characters") String newPassword) {
    }

    @PostMapping("/api/v1/me/password")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void change(Caller caller, @Valid @RequestBody PasswordChange change, HttpServletRequest request) {
        if (!caller.credential().firstParty()) {
            throw ApiProblem.forbidden("Only the person themselves can change their password, not an app.");
        }
        if (!PasswordRules.fitsBcrypt(change.newPassword())) {
            throw ApiProblem.invalid("new_password", PasswordRules.TOO_LONG);
        }
        StoredAccount account = accounts.find(caller.userId()).orElseThrow(() -> ApiProblem.notFound("account"));
        checkCurrent(account, change.currentPassword(), request.getRemoteAddr());
        accounts.changePassword(account.id(), change.newPassword());
        signOut.endPasswordLogins(account.id(), ownSession(caller, request));
    }

    /**
     * Signing out everywhere: every session (the caller's too), personal token, app grant, Google
     * Reader and Fever login of the person ends, and XMPP push stops. Takes no body; one sent is ignored.
     */
    @PostMapping("/api/v1/me/sessions/revoke")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void signOutEverywhere(Caller caller, HttpServletRequest request) {
        if (!caller.credential().firstParty()) {
            throw ApiProblem.forbidden("Only the person themselves can sign out everywhere, not an app.");
        }
        signOut.everywhere(caller.userId());
        HttpSession own = caller.credential().kind() == Credential.Kind.SESSION ? request.getSession(false) : null;
        if (own != null) {
            // Ended in Redis already; invalidated here too so that the end of this request neither saves it back
            // nor leaves the browser its cookie.
            own.invalidate();
        }
    }

    private void checkCurrent(StoredAccount account, String password, String address) {
        try {
            login.authenticate(account.body().username(), password, address);
        } catch (LoginRefusedException refused) {
            if (refused.retryAfter() != null) {
                throw ApiProblem.tooManyRequests(refused.getMessage(), refused.retryAfter().toSeconds() + 1);
            }
            throw ApiProblem.invalid("current_password", "is not the account's password");
        }
    }

    /** The session making the change stays signed in; a change made with a token ends every session. */
    private static @Nullable String ownSession(Caller caller, HttpServletRequest request) {
        HttpSession session = caller.credential().kind() == Credential.Kind.SESSION ? request.getSession(false) : null;
        return session == null ? null : session.getId();
    }
}
