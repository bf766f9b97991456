package dev.tributary.crawler.parse;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/** Urls as feeds write them (relative, with spaces or non-ASCII) made absolute http(s) urls, or refused. */
public final class LinkResolver {

    /** Longer urls are refused: no real link is this long, and stored urls are keys in places. */
    public static final int MAX_LENGTH = 4096;

    private static final String HEX = "0123456789ABCDEF";

    private LinkResolver() {
    }

    /** {@code reference} resolved against {@code base}, if the result is an absolute http or https url with a host; else null. */
    public static @Nullable URI resolveHttp(URI base, @Nullable String reference) {
        if (reference == null) {
            return null;
        }
        String trimmed = reference.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_LENGTH) {
            return null;
        }
        URI parsed = lenientUri(trimmed);
        if (parsed == null) {
            return null;
        }
        try {
            URI resolved = resolve(base, parsed);
            // URI lets non-ASCII through unescaped; stored and compared urls are better in one (ASCII) form.
            String ascii = resolved.toASCIIString();
            if (!ascii.equals(resolved.toString())) {
                resolved = new URI(ascii);
            }
            return isHttp(resolved) && ascii.length() <= MAX_LENGTH ? resolved : null;
        } catch (IllegalArgumentException | URISyntaxException unresolvable) {
            return null;
        }
    }

    /** An {@code xml:base} resolved against the base around it; that base itself if there is none or the result is not http(s). */
    static URI base(URI base, @Nullable String xmlBase) {
        URI resolved = resolveHttp(base, xmlBase);
        return resolved == null ? base : resolved;
    }

    private static boolean isHttp(URI uri) {
        String scheme = uri.getScheme();
        return scheme != null && uri.getHost() != null && !uri.getHost().isEmpty()
                && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"));
    }

    /** {@code reference} resolved against {@code base}, mending {@link URI#resolve}'s {@code http://host} + {@code x} = {@code http://hostx}. */
    private static URI resolve(URI base, URI reference) {
        if (reference.isAbsolute() || base.isOpaque() || !base.isAbsolute()) {
            return reference;
        }
        URI from = base;
        if (base.getRawAuthority() != null && (base.getRawPath() == null || base.getRawPath().isEmpty())) {
            from = base.resolve("/");
        }
        return from.resolve(reference);
    }

    /** A URI of the text, percent-encoding what {@link URI} refuses (spaces, non-ASCII, {@code |}...); null if still unparseable. */
    private static @Nullable URI lenientUri(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException strict) {
            try {
                return new URI(encodeIllegal(text));
            } catch (URISyntaxException unparseable) {
                return null;
            }
        }
    }

    private static String encodeIllegal(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        int i = 0;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            boolean percentEscape = c == '%' && isHex(text, i + 1) && isHex(text, i + 2);
            // A second '#' would still be refused: only the first starts the fragment.
            boolean laterHash = c == '#' && text.lastIndexOf('#', i - 1) >= 0;
            if (c > 0x20 && c < 0x7F && "\"<>\\^`{|}".indexOf(c) < 0 && (c != '%' || percentEscape) && !laterHash) {
                out.append((char) c);
            } else {
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(HEX.charAt(b >> 4 & 0xF)).append(HEX.charAt(b & 0xF));
                }
            }
            i += Character.charCount(c);
        }
        return out.toString();
    }

    private static boolean isHex(String text, int at) {
        return at < text.length() && HEX.indexOf(Character.toUpperCase(text.charAt(at))) >= 0;
    }
}
