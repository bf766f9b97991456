package dev.tributary.api.password;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.PasswordRules;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.security.LoginRefusedException;
import dev.tributary.api.security.PasswordLogin;
import dev.tributary.api.security.PersonSessions;
import dev.tributary.api.security.Revocations;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Credential;
import dev.tributary.pubsub.XmppLinks;
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
 * Personal tokens and app grants stay: they were issued deliberately and are revoked one by one.
 */
@RestController
class PasswordController {

    private final Accounts accounts;
    private final PasswordLogin login;
    private final PersonSessions sessions;
    private final Revocations revocations;
    private final XmppLinks xmppLinks;

    PasswordController(Accounts accounts, PasswordLogin login, PersonSessions sessions, Revocations revocations,
            XmppLinks xmppLinks) {
        this.xmppLinks = xmppLinks;
        this.accounts = accounts;
        this.login = login;
        this.sessions = sessions;
        this.revocations = revocations;
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
        sessions.endAllBut(account.id(), ownSession(caller, request));
        // Push to a linked XMPP address ends with the sessions, what was waiting for it too: an address linked by
        // whoever held the account before the change must not go on reading the person's feed.
        xmppLinks.unlink(account.id());
        // Google Reader logins made with the password carry a stamp of its hash: every node re-checks them.
        revocations.announce(Revocations.passwordKey(account.id()));
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
