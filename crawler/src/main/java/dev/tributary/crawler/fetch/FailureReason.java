package dev.tributary.crawler.fetch;

/** The closed set of ways a fetch fails; {@link #key()} is the stable name stored on a source and used by metrics. */
public enum FailureReason {
    /** Not an absolute http(s) url. */
    INVALID_URL("invalid_url"),
    /** Resolves to (or connected to) a loopback, private, link-local, multicast or unspecified address. */
    BLOCKED_ADDRESS("blocked_address"),
    DNS("dns"),
    CONNECT("connect"),
    TIMEOUT("timeout"),
    TLS("tls"),
    TOO_MANY_REDIRECTS("too_many_redirects"),
    REDIRECT_LOOP("redirect_loop"),
    /** Body (as sent) larger than the limit. */
    TOO_LARGE("too_large"),
    /** Body larger than the limit once decompressed (a gzip bomb). */
    DECOMPRESSED_TOO_LARGE("decompressed_too_large"),
    /** 401 or 403. */
    FORBIDDEN("forbidden"),
    NOT_FOUND("not_found"),
    GONE("gone"),
    RATE_LIMITED("rate_limited"),
    /** Any other 4xx. */
    CLIENT_ERROR("client_error"),
    /** 5xx. */
    SERVER_ERROR("server_error"),
    /** A response that breaks HTTP (bad headers, bad encoding, truncated body, 1xx/3xx without location). */
    PROTOCOL("protocol");

    private final String key;

    FailureReason(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
