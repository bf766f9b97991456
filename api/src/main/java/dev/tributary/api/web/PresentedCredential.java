package dev.tributary.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A credential that only a compatibility API's own code checks (a Fever {@code api_key}, a Google
 * Reader Auth value), so the rate limit, which runs before that code, asks it whether a request
 * presents one and whom it acts for: a valid one is counted in its person's bucket, shared with
 * all their other credentials; a presented one that does not authenticate counts against the
 * client's address, so cycling random values buys nothing.
 */
public interface PresentedCredential {

    /**
     * A credential a request presented, and whom it acts for.
     * @param kind the credential's kind, e.g. {@code fever}
     * @param secret the value presented (never logged)
     * @param person the id of the person it acts for; null if it does not authenticate
     */
    record Presented(String kind, String secret, @Nullable Long person) {

        public boolean valid() {
            return person != null;
        }

        @Override
        public String toString() {
            return "Presented[" + kind + ", valid=" + valid() + "]";
        }
    }

    /** The credential of this kind the request presents, checked; empty if it presents none. */
    Optional<Presented> check(HttpServletRequest request);
}
