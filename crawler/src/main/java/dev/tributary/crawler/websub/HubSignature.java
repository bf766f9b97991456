package dev.tributary.crawler.websub;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Checks WebSub content distribution signatures: {@code X-Hub-Signature: method=hex} where the
 * method is sha1, sha256, sha384 or sha512 (HMAC of the body with the subscription's secret).
 */
public final class HubSignature {

    private HubSignature() {
    }

    /** Whether {@code header} is a valid signature of {@code body} under {@code secret}; false for any malformed header. */
    public static boolean valid(@Nullable String header, byte[] body, String secret) {
        if (header == null) {
            return false;
        }
        int eq = header.indexOf('=');
        if (eq <= 0) {
            return false;
        }
        String algorithm = switch (header.substring(0, eq).strip().toLowerCase(Locale.ROOT)) {
            case "sha1" -> "HmacSHA1";
            case "sha256" -> "HmacSHA256";
            case "sha384" -> "HmacSHA384";
            case "sha512" -> "HmacSHA512";
            default -> null;
        };
        if (algorithm == null) {
            return false;
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(header.substring(eq + 1).strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
        // Constant time, so the signature cannot be guessed byte by byte.
        return MessageDigest.isEqual(given, sign(algorithm, body, secret));
    }

    /** {@code method=hex} of {@code body}, as a hub sends it (used by tests' hubs). */
    public static String header(String method, byte[] body, String secret) {
        String algorithm = "Hmac" + method.toUpperCase(Locale.ROOT);
        return method + "=" + HexFormat.of().formatHex(sign(algorithm, body, secret));
    }

    private static byte[] sign(String algorithm, byte[] body, String secret) {
        try {
            Mac mac = Mac.getInstance(algorithm);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), algorithm));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is not available", e);
        }
    }
}
