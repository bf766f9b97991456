package dev.tributary.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The rate limit of requests refused for want of a valid token, which never reach the rate limit
 * filter behind Spring Security: they count per client address, like the open endpoints.
 */
public interface UnauthenticatedLimit {

    /** Counts the request and sets the {@code RateLimit-*} headers; true (with {@code Retry-After} set) if over the limit. */
    boolean overLimit(HttpServletRequest request, HttpServletResponse response);
}
