package dev.tributary.pubsub;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A feed item's story: its canonical link (or its guid when that is a URL), hashed to 64 bits.
 * Two feeds carrying the same post (one blog's category feeds) give it the same story, however
 * each spells the link: http or https, host case, default ports, tracking parameters, a trailing
 * slash or a fragment make no difference. Pure: no database.
 */
final class Stories {

    /** Longest link considered; a longer one is nobody's canonical link and has no story. */
    static final int MAX_LINK = 2048;

    private Stories() {
    }

    /** The story of an entry: its link's, else its guid's when that is a URL; null if neither is an http(s) URL. */
    static @Nullable Long of(@Nullable String url, String guid) {
        String canonical = canonical(url);
        if (canonical == null) {
            canonical = canonical(guid);
        }
        return canonical == null ? null : hash(canonical);
    }

    /**
     * The link as a story sees it, without its scheme ({@code //host/path?query}), or null if it is
     * not an absolute http(s) URL with a host.
     */
    static @Nullable String canonical(@Nullable String link) {
        if (link == null || link.isBlank() || link.length() > MAX_LINK) {
            return null;
        }
        URI uri;
        try {
            uri = new URI(link.strip());
        } catch (URISyntaxException e) {
            return null;
        }
        String scheme = uri.getScheme();
        String host = uri.getHost();
        if (scheme == null || host == null
                || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
            return null;
        }
        StringBuilder out = new StringBuilder(link.length()).append("//").append(hostOf(host));
        int port = uri.getPort();
        if (port != -1 && port != 80 && port != 443) {
            out.append(':').append(port);
        }
        out.append(pathOf(uri.getRawPath()));
        String query = queryOf(uri.getRawQuery());
        if (!query.isEmpty()) {
            out.append('?').append(query);
        }
        return out.toString();
    }

    private static String hostOf(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }

    /** The path without trailing slashes: {@code /a/} is {@code /a}, and {@code /} is empty, as no path is. */
    private static String pathOf(@Nullable String path) {
        if (path == null) {
            return "";
        }
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        return path.substring(0, end);
    }

    /** The parameters that say what the page is, sorted (their order says nothing); tracking ones dropped. */
    private static String queryOf(@Nullable String query) {
        if (query == null || query.isEmpty()) {
            return "";
        }
        return Arrays.stream(query.split("&"))
                .filter(parameter -> !parameter.isEmpty() && !tracking(parameter))
                .sorted()
                .collect(Collectors.joining("&"));
    }

    private static boolean tracking(String parameter) {
        int equals = parameter.indexOf('=');
        String name = (equals < 0 ? parameter : parameter.substring(0, equals)).toLowerCase(Locale.ROOT);
        return name.startsWith("utm_") || name.startsWith("mc_") || switch (name) {
            case "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid", "twclid", "_hsenc", "_hsmi" -> true;
            default -> false;
        };
    }

    /** The first 64 bits of the canonical link's SHA-256: collisions are as likely as two random longs meeting. */
    private static long hash(String canonical) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
