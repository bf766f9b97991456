package dev.tributary.api.password;

import dev.tributary.api.greader.ReaderLogins;
import dev.tributary.api.oauth.AuthorizedApps;
import dev.tributary.api.security.PersonSessions;
import dev.tributary.api.security.Revocations;
import dev.tributary.api.token.TokenRevocation;
import dev.tributary.pubsub.XmppLinks;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Ending what signs a person in: the part a password change shares ({@link #endPasswordLogins})
 * and signing out everywhere ({@link #everywhere}), which also revokes what was issued
 * deliberately (personal tokens, with their Fever keys, and every app's grant).
 */
@Component
class AccountSignOut {

    private final PersonSessions sessions;
    private final Revocations revocations;
    private final XmppLinks xmppLinks;
    private final TokenRevocation tokens;
    private final AuthorizedApps apps;
    private final ReaderLogins readerLogins;

    AccountSignOut(PersonSessions sessions, Revocations revocations, XmppLinks xmppLinks, TokenRevocation tokens,
            AuthorizedApps apps, ReaderLogins readerLogins) {
        this.sessions = sessions;
        this.revocations = revocations;
        this.xmppLinks = xmppLinks;
        this.tokens = tokens;
        this.apps = apps;
        this.readerLogins = readerLogins;
    }

    /**
     * Ends the person's browser sessions but {@code keep} (null: all) with their live streams, and
     * push to a linked XMPP address with what waits for it; Google Reader logins made with the
     * password stop on every node. What a password change ends.
     */
    void endPasswordLogins(long userId, @Nullable String keep) {
        sessions.endAllBut(userId, keep);
        // Push to a linked XMPP address ends with the sessions, what was waiting for it too: an address linked by
        // whoever held the account before must not go on reading the person's feed.
        xmppLinks.unlink(userId);
        // Google Reader logins made with the password carry a stamp of its hash: every node re-checks them.
        revocations.announce(Revocations.passwordKey(userId));
    }

    /** Ends every way the person is signed in anywhere, the calling session included. */
    void everywhere(long userId) {
        // Tokens and grants first: each revocation closes the streams opened with it on every node.
        tokens.revokeAll(userId);
        apps.withdrawAll(userId);
        readerLogins.endAll(userId);
        endPasswordLogins(userId, null);
    }
}
