package dev.tributary.crawler;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Turns what a person typed into the url a feed source is keyed by: scheme added when missing
 * ({@code https}), {@code feed:} read as http, scheme and host lower-cased, default port, empty
 * path and fragment dropped; anything but an absolute http(s) url is refused.
 */
public final class FeedUrls {

    /** Longest url accepted (the crawl state column's width). */
    public static final int MAX_LENGTH = 2048;

    private FeedUrls() {
    }

    /** @throws FeedRejectedException with reason {@code invalid_url} */
    public static URI normalize(String input) {
        String text = input == null ? "" : input.strip();
        if (text.isEmpty() || text.length() > MAX_LENGTH) {
            throw invalid("a url of 1 to " + MAX_LENGTH + " characters is needed");
        }
        if (text.regionMatches(true, 0, "feed://", 0, 7)) {
            text = "http://" + text.substring(7);
        } else if (text.regionMatches(true, 0, "feed:", 0, 5)) {
            text = text.substring(5);
        }
        if (!text.contains("://")) {
            text = "https://" + text;
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw invalid("this is not a valid url");
        }
        return normalize(uri);
    }

    /** The canonical form of an absolute http(s) url. @throws FeedRejectedException if it is not one */
    public static URI normalize(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw invalid("only http and https urls can be subscribed to");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw invalid("the url has no valid host name");
        }
        if (uri.getRawUserInfo() != null) {
            throw invalid("urls with a user name or password are not accepted");
        }
        int port = uri.getPort();
        if (port == 80 && scheme.equals("http") || port == 443 && scheme.equals("https")) {
            port = -1;
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        StringBuilder url = new StringBuilder(scheme).append("://").append(uri.getHost().toLowerCase(Locale.ROOT));
        if (port != -1) {
            url.append(':').append(port);
        }
        url.append(path);
        if (uri.getRawQuery() != null) {
            url.append('?').append(uri.getRawQuery());
        }
        if (url.length() > MAX_LENGTH) {
            throw invalid("the url is longer than " + MAX_LENGTH + " characters");
        }
        try {
            return new URI(url.toString());
        } catch (URISyntaxException e) {
            throw invalid("this is not a valid url");
        }
    }

    private static FeedRejectedException invalid(String why) {
        return new FeedRejectedException("invalid_url", why);
    }
}
