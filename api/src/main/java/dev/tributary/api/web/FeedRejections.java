package dev.tributary.api.web;

import dev.tributary.crawler.RejectionReason;

/**
 * The one place a url that cannot be subscribed to becomes an answer: 422 {@code feed-rejected}
 * with the crawler's sentence as detail and the reason's stable wire name as {@code reason}.
 * A host that does not resolve and one that resolves to a non-public address get the same answer,
 * {@code unreachable}, with a sentence that names no address: telling them apart would let a
 * stranger map which internal names exist and where they point.
 */
public final class FeedRejections {

    private static final String TYPE = "feed-rejected";
    private static final String UNREACHABLE = "The feed's host could not be reached: it does not resolve, or not to a public"
            + " internet address.";

    private FeedRejections() {
    }

    static ApiProblem problem(RejectionReason reason, String detail) {
        return ApiProblem.unprocessable(TYPE, wireName(reason), detail(reason, detail));
    }

    /**
     * An entry's full article that cannot be had: 422 {@code article-unavailable} with the same
     * reasons (and the same hiding of how names resolve) as a refused feed.
     */
    static ApiProblem articleProblem(RejectionReason reason, String detail) {
        return ApiProblem.unprocessable("article-unavailable", wireName(reason),
                hidesResolution(reason) ? "The page's host could not be reached: it does not resolve, or not to a public internet address."
                        : "The full article could not be read: " + detail + ".");
    }

    /**
     * The sentence a client may see: the crawler's own, as a sentence (a capital first, a full
     * stop last, as every refusal reads), except where it would reveal how a name resolves.
     */
    public static String detail(RejectionReason reason, String crawlerDetail) {
        return hidesResolution(reason) ? UNREACHABLE : sentence(crawlerDetail);
    }

    static String sentence(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return trimmed;
        }
        String capital = Character.toUpperCase(trimmed.charAt(0)) + trimmed.substring(1);
        char last = capital.charAt(capital.length() - 1);
        return last == '.' || last == '!' || last == '?' || last == '…' ? capital : capital + ".";
    }

    private static boolean hidesResolution(RejectionReason reason) {
        return reason == RejectionReason.BLOCKED_ADDRESS || reason == RejectionReason.DNS;
    }

    /**
     * Spelled out rather than derived from the constant's name: clients match on these, so
     * renaming a constant must not rename them, and a new reason must be named here on purpose.
     */
    public static String wireName(RejectionReason reason) {
        return switch (reason) {
            case INVALID_URL -> "invalid_url";
            case BLOCKED_ADDRESS, DNS -> "unreachable";
            case CONNECT -> "connect";
            case TIMEOUT -> "timeout";
            case TLS -> "tls";
            case TOO_MANY_REDIRECTS -> "too_many_redirects";
            case REDIRECT_LOOP -> "redirect_loop";
            case TOO_LARGE -> "too_large";
            case DECOMPRESSED_TOO_LARGE -> "decompressed_too_large";
            case FORBIDDEN -> "forbidden";
            case NOT_FOUND -> "not_found";
            case GONE -> "gone";
            case RATE_LIMITED -> "rate_limited";
            case CLIENT_ERROR -> "client_error";
            case SERVER_ERROR -> "server_error";
            case PROTOCOL -> "protocol";
            case NOT_A_FEED -> "not_a_feed";
            case MALFORMED -> "malformed";
            case FORBIDDEN_DTD -> "forbidden_dtd";
            case NOT_HTML -> "not_html";
            case NO_ARTICLE -> "no_article";
        };
    }
}
