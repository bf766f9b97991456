package dev.tributary.crawler.fetch;

import io.netty.util.NetUtil;
import java.net.IDN;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The one normal form of a feed url, used both to key a feed source and to fetch it: absolute
 * http(s), no user info, no fragment, lower-case scheme and host (IDNs in ASCII, every IPv4
 * spelling as a dotted quad), no default port, a path of at least "/". Also reads what a person
 * typed ({@code https} added when missing, {@code feed:} read as http) and resolves a
 * redirect's {@code Location}. Inside a fetch, failures are {@link FetchAbort}s with
 * {@link FailureReason#INVALID_URL}; the public methods throw {@link InvalidUrlException}.
 */
public final class FeedUrls {

    /** Longest url a feed source is keyed by (the crawl state column's width). */
    public static final int MAX_LENGTH = 2048;

    /**
     * A url ready to fetch, in the normal form. {@code literal} is set when the host is an IP
     * address, so the guard can refuse it before any connection is attempted.
     */
    record Target(URI uri, @Nullable InetAddress literal) {
    }

    /** A url that is not an absolute http(s) url; the message says why, fit for a subscriber. */
    public static final class InvalidUrlException extends RuntimeException {

        InvalidUrlException(String message) {
            super(message, null, false, false);
        }
    }

    private FeedUrls() {
    }

    /**
     * What a person typed, in the normal form.
     *
     * @throws InvalidUrlException if it is not an http(s) url of at most {@link #MAX_LENGTH} characters
     */
    public static URI normalize(String input) {
        String text = input == null ? "" : input.strip();
        if (text.isEmpty() || text.length() > MAX_LENGTH) {
            throw new InvalidUrlException("a url of 1 to " + MAX_LENGTH + " characters is needed");
        }
        if (text.regionMatches(true, 0, "feed://", 0, 7)) {
            text = "http://" + text.substring(7);
        } else if (text.regionMatches(true, 0, "feed:", 0, 5)) {
            text = text.substring(5);
        }
        if (!text.contains("://")) {
            text = "https://" + text;
        }
        try {
            return normalize(new URI(text));
        } catch (URISyntaxException e) {
            throw new InvalidUrlException("this is not a valid url");
        }
    }

    /**
     * {@code url} in the normal form.
     *
     * @throws InvalidUrlException if it is not an absolute http(s) url of at most {@link #MAX_LENGTH} characters
     */
    public static URI normalize(URI url) {
        URI normal;
        try {
            normal = check(url).uri();
        } catch (FetchAbort invalid) {
            throw new InvalidUrlException(invalid.getMessage());
        }
        if (normal.toString().length() > MAX_LENGTH) {
            throw new InvalidUrlException("the url is longer than " + MAX_LENGTH + " characters");
        }
        return normal;
    }

    /** {@code url} ready to fetch. @throws FetchAbort with {@link FailureReason#INVALID_URL} */
    static Target check(URI url) {
        if (!url.isAbsolute() || url.isOpaque()) {
            throw invalid("not an absolute http(s) url");
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw invalid("only http and https urls are accepted");
        }
        String authority = url.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            throw invalid("url has no host");
        }
        // "http://feeds.example@10.0.0.1/" reads as one host to a person and another to a client.
        if (url.getRawUserInfo() != null || authority.indexOf('@') >= 0) {
            throw invalid("urls with user info are refused");
        }
        String host = url.getHost();
        int port = url.getPort();
        if (host == null) {
            // java.net.URI leaves the host out when it is not an RFC 2396 host name: IDNs, and
            // IPv4 spellings like 0x7f.0.0.1 or 127.1 that C resolvers would still accept.
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? -1 : parsePort(authority.substring(colon + 1));
        }
        if (port == 0 || port > 65535 || port < -1) {
            throw invalid("url port is out of range");
        }
        if (host.isEmpty()) {
            throw invalid("url has no host");
        }
        InetAddress literal = null;
        String normalHost;
        if (host.startsWith("[")) {
            literal = ipv6Literal(host);
            // Written back in the one form Netty parses too (IPv4-mapped comes back as IPv4).
            normalHost = literal instanceof Inet6Address ? "[" + NetUtil.toAddressString(literal) + "]" : literal.getHostAddress();
        } else if (endsInANumber(host)) {
            literal = legacyIpv4(host);
            normalHost = literal.getHostAddress();
        } else {
            normalHost = asciiHost(host);
        }
        if (port == defaultPort(scheme)) {
            port = -1;
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String query = url.getRawQuery();
        String text = scheme + "://" + normalHost + (port == -1 ? "" : ":" + port) + path + (query == null ? "" : "?" + query);
        try {
            return new Target(new URI(text), literal);
        } catch (URISyntaxException e) {
            throw invalid("url is not valid");
        }
    }

    /** The next url of a redirect: {@code location} resolved against {@code base}, then checked. */
    static Target resolveLocation(URI base, String location) {
        String cleaned = escapeStray(location.strip());
        URI reference;
        try {
            reference = new URI(cleaned);
        } catch (URISyntaxException e) {
            throw invalid("redirect to an invalid url");
        }
        URI next;
        if (reference.isAbsolute()) {
            next = reference;
        } else if (cleaned.isEmpty() || cleaned.startsWith("#")) {
            next = base;
        } else if (cleaned.startsWith("?")) {
            // java.net.URI follows RFC 2396 here and would drop the last path segment.
            next = URI.create(base.getScheme() + "://" + base.getRawAuthority() + base.getRawPath() + cleaned);
        } else {
            next = base.resolve(reference);
        }
        return check(next);
    }

    private static int parsePort(String text) {
        if (text.isEmpty()) {
            return -1;
        }
        if (text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalid("url port is out of range");
        }
        return Integer.parseInt(text);
    }

    private static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }

    private static InetAddress ipv6Literal(String bracketed) {
        int zone = bracketed.indexOf('%');
        String literal = zone < 0 ? bracketed : bracketed.substring(0, zone) + "]";
        if (!literal.endsWith("]") || literal.indexOf(':') < 0) {
            throw invalid("url host is not a valid IPv6 address");
        }
        try {
            // With brackets the JDK parses an IPv6 literal or fails; it never asks DNS.
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw invalid("url host is not a valid IPv6 address");
        }
    }

    private static String asciiHost(String host) {
        String ascii;
        try {
            ascii = IDN.toASCII(host, IDN.ALLOW_UNASSIGNED);
        } catch (IllegalArgumentException e) {
            throw invalid("url host is not valid");
        }
        for (int i = 0; i < ascii.length(); i++) {
            char c = ascii.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
            if (!ok) {
                throw invalid("url host is not valid");
            }
        }
        return ascii.toLowerCase(Locale.ROOT);
    }

    /**
     * True when the last label is numeric (WHATWG URL "ends in a number"): such a host is an
     * IPv4 address in some spelling (2130706433, 0x7f.1, 0177.0.0.1), never a DNS name.
     */
    static boolean endsInANumber(String host) {
        String trimmed = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String last = trimmed.substring(trimmed.lastIndexOf('.') + 1);
        if (last.isEmpty()) {
            return false;
        }
        if (last.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return true;
        }
        return (last.startsWith("0x") || last.startsWith("0X")) && last.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /** Parses an IPv4 address the way browsers and inet_aton do: 1 to 4 parts, decimal, octal or hex. */
    static InetAddress legacyIpv4(String host) {
        String trimmed = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String[] parts = trimmed.split("\\.", -1);
        if (parts.length > 4) {
            throw invalid("url host is not a valid IPv4 address");
        }
        long[] numbers = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            numbers[i] = ipv4Number(parts[i]);
            if (i < parts.length - 1 && numbers[i] > 255) {
                throw invalid("url host is not a valid IPv4 address");
            }
        }
        long last = numbers[parts.length - 1];
        if (last >= 1L << (8 * (5 - parts.length))) {
            throw invalid("url host is not a valid IPv4 address");
        }
        long value = last;
        for (int i = 0; i < parts.length - 1; i++) {
            value += numbers[i] << (8 * (3 - i));
        }
        return address(new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }

    private static long ipv4Number(String part) {
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x") || part.startsWith("0X")) {
            radix = 16;
            digits = part.substring(2);
            if (digits.isEmpty()) {
                return 0;
            }
        } else if (part.length() > 1 && part.startsWith("0")) {
            radix = 8;
            digits = part.substring(1);
        }
        // Anything longer cannot fit 32 bits in any radix and is refused before parsing.
        if (digits.isEmpty() || digits.length() > 12) {
            throw invalid("url host is not a valid IPv4 address");
        }
        try {
            return Long.parseLong(digits, radix);
        } catch (NumberFormatException e) {
            throw invalid("url host is not a valid IPv4 address");
        }
    }

    private static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw invalid("url host is not a valid address");
        }
    }

    /** Percent-encodes what servers put in Location but java.net.URI refuses (spaces, UTF-8, ...). */
    private static String escapeStray(String location) {
        StringBuilder out = null;
        for (int i = 0; i < location.length(); i++) {
            char c = location.charAt(i);
            boolean stray = c <= 0x20 || c >= 0x7f || "\"<>\\^`{|}".indexOf(c) >= 0
                    || (c == '%' && !(i + 2 < location.length() && isHex(location.charAt(i + 1)) && isHex(location.charAt(i + 2))));
            if (stray && out == null) {
                out = new StringBuilder(location.length() + 16).append(location, 0, i);
            }
            if (out != null) {
                if (!stray) {
                    out.append(c);
                } else if (Character.isHighSurrogate(c) && i + 1 < location.length()) {
                    appendEscaped(out, location.substring(i, i + 2));
                    i++;
                } else {
                    appendEscaped(out, String.valueOf(c));
                }
            }
        }
        return out == null ? location : out.toString();
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0;
    }

    private static void appendEscaped(StringBuilder out, String chars) {
        for (byte b : chars.getBytes(StandardCharsets.UTF_8)) {
            out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16))).append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
        }
    }

    private static FetchAbort invalid(String detail) {
        return new FetchAbort(FailureReason.INVALID_URL, detail);
    }
}
