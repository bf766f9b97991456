package dev.tributary.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * A credential that only a compatibility API's own code checks (a Fever {@code api_key}, a Google
 * Reader Auth value), so the rate limit, which runs before that code, asks it whether a request
 * presents one and whether it is valid: only a valid one earns a bucket of its own; a presented
 * one that does not authenticate counts against the client's address, so cycling random values
 * buys nothing.
 */
public interface PresentedCredential {

    /**
     * A credential a request presented, and whether it is valid.
     * @param kind names the bucket's kind, e.g. {@code fever}
     * @param secret the value presented (the rate limit keys its bucket by a hash of it, never the value)
     */
    record Presented(String kind, String secret, boolean valid) {

        @Override
        public String toString() {
            return "Presented[" + kind + ", valid=" + valid + "]";
        }
    }

    /** The credential of this kind the request presents, checked; empty if it presents none. */
    Optional<Presented> check(HttpServletRequest request);
}
