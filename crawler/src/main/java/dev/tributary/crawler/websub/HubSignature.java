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
 * method is sha1, sha256, sha384 or sha512 (HMAC of the body with the subscription's secret);
 * and the callback url's per-subscription key.
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

    /**
     * The callback path's key of a subscription: an HMAC of the source id under the subscription's
     * secret (128 bits, hex). Only the hub was given the callback url, so an intent verification
     * that names it comes from the hub; anyone who merely knows a source id cannot forge one.
     */
    public static String callbackKey(long sourceId, String secret) {
        byte[] mac = sign("HmacSHA256", ("websub-callback:" + sourceId).getBytes(StandardCharsets.UTF_8), secret);
        return HexFormat.of().formatHex(mac, 0, 16);
    }

    /** Whether {@code key} is the callback key of the subscription; constant time, false for a missing key. */
    public static boolean validCallbackKey(@Nullable String key, long sourceId, String secret) {
        return key != null && MessageDigest.isEqual(key.getBytes(StandardCharsets.US_ASCII),
                callbackKey(sourceId, secret).getBytes(StandardCharsets.US_ASCII));
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
