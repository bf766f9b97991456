package dev.tributary.crawler;

import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.parse.FeedFormatException;

/**
 * The closed set of reasons a url cannot be subscribed to: each way its fetch can fail, and each
 * way its body can fail to be a readable feed; and, for an entry's page, each way it can fail to
 * give its full article. The API names them on the wire; this module only says which one applies.
 */
public enum RejectionReason {
    INVALID_URL,
    BLOCKED_ADDRESS,
    DNS,
    CONNECT,
    TIMEOUT,
    TLS,
    TOO_MANY_REDIRECTS,
    REDIRECT_LOOP,
    TOO_LARGE,
    DECOMPRESSED_TOO_LARGE,
    FORBIDDEN,
    NOT_FOUND,
    /** Answered 410, now or on an earlier crawl. */
    GONE,
    RATE_LIMITED,
    CLIENT_ERROR,
    SERVER_ERROR,
    PROTOCOL,
    /** Neither a feed nor a page naming one. */
    NOT_A_FEED,
    /** Meant to be a feed but broken beyond repair. */
    MALFORMED,
    /** Declares a DTD, which is refused outright. */
    FORBIDDEN_DTD,
    /** An entry's page that is not HTML (a PDF, an image, a feed), so it has no article to read. */
    NOT_HTML,
    /** An entry's page with no readable article in it (empty, all navigation, or too broken to read). */
    NO_ARTICLE;

    /** The rejection for a failed fetch. */
    public static RejectionReason of(FailureReason failure) {
        return switch (failure) {
            case INVALID_URL -> INVALID_URL;
            case BLOCKED_ADDRESS -> BLOCKED_ADDRESS;
            case DNS -> DNS;
            case CONNECT -> CONNECT;
            case TIMEOUT -> TIMEOUT;
            case TLS -> TLS;
            case TOO_MANY_REDIRECTS -> TOO_MANY_REDIRECTS;
            case REDIRECT_LOOP -> REDIRECT_LOOP;
            case TOO_LARGE -> TOO_LARGE;
            case DECOMPRESSED_TOO_LARGE -> DECOMPRESSED_TOO_LARGE;
            case FORBIDDEN -> FORBIDDEN;
            case NOT_FOUND -> NOT_FOUND;
            case GONE -> GONE;
            case RATE_LIMITED -> RATE_LIMITED;
            case CLIENT_ERROR -> CLIENT_ERROR;
            case SERVER_ERROR -> SERVER_ERROR;
            case PROTOCOL -> PROTOCOL;
        };
    }

    /** The rejection for a body that is not a readable feed. */
    static RejectionReason of(FeedFormatException.Reason format) {
        return switch (format) {
            case NOT_A_FEED -> NOT_A_FEED;
            case MALFORMED -> MALFORMED;
            case FORBIDDEN_DTD -> FORBIDDEN_DTD;
            // Too big once expanded into a tree: the subscriber hears "too large", as for an oversized body.
            case TOO_MANY_NODES -> TOO_LARGE;
        };
    }
}
