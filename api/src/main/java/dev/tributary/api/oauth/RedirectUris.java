package dev.tributary.api.oauth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which redirect URIs an app may register (OAuth 2.1 §2.3.1, RFC 8252): absolute, no fragment,
 * and either https, http on a loopback address (native apps listening locally), or a private-use
 * scheme in reverse-domain form ({@code com.example.app:/callback}). Everything else, from
 * {@code javascript:} to plain http on the open internet, is refused at registration.
 */
final class RedirectUris {

    static final int MAX_LENGTH = 500;

    /** A reverse-domain scheme: at least two dot-separated labels (RFC 8252 §7.1). */
    private static final Pattern PRIVATE_USE_SCHEME = Pattern.compile("[a-z][a-z0-9+-]*(\\.[a-z0-9][a-z0-9+-]*)+");

    private RedirectUris() {
    }

    /** Why {@code value} may not be registered; empty if it may. */
    static Optional<String> problem(String value) {
        if (value == null || value.isBlank()) {
            return Optional.of("must not be blank");
        }
        if (value.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            return Optional.of("is not a valid URI");
        }
        if (!uri.isAbsolute()) {
            return Optional.of("must be an absolute URI");
        }
        if (uri.getRawFragment() != null) {
            return Optional.of("must not have a fragment");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "https" -> web(uri, false);
            case "http" -> web(uri, true);
            default -> PRIVATE_USE_SCHEME.matcher(scheme).matches()
                    ? Optional.empty()
                    : Optional.of("must use https, http on a loopback address (127.0.0.1 or [::1]), or a private-use"
                            + " scheme such as com.example.app:/callback");
        };
    }

    private static Optional<String> web(URI uri, boolean loopbackOnly) {
        String host = uri.getHost();
        if (uri.isOpaque() || host == null || host.isEmpty()) {
            return Optional.of("must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("must not carry user information");
        }
        if (loopbackOnly && !isLoopbackLiteral(host)) {
            return Optional.of("may use http only on a loopback address (127.0.0.1 or [::1]); use https elsewhere");
        }
        return Optional.empty();
    }

    /** Loopback by address, not by name: OAuth 2.1 advises against {@code localhost}, and the server refuses it. */
    private static boolean isLoopbackLiteral(String host) {
        if (host.equals("[::1]")) {
            return true;
        }
        String[] octets = host.split("\\.", -1);
        if (octets.length != 4 || !octets[0].equals("127")) {
            return false;
        }
        for (String octet : octets) {
            if (octet.isEmpty() || octet.length() > 3 || !octet.chars().allMatch(Character::isDigit)
                    || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }
}
