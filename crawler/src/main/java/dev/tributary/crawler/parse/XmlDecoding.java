package dev.tributary.crawler.parse;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Turns an XML body into characters, trusting evidence before labels:
 * <ol>
 * <li>a byte order mark (UTF-8, UTF-16, UTF-32);
 * <li>UTF-16 or UTF-32 without one, told by the NULs beside the first ASCII characters ({@code 00 3C 00 3F});
 * <li>a 7-bit escape encoding (ISO-2022-JP...) named by the declaration or header, which nothing else can tell;
 * <li>the body itself when it is well-formed UTF-8: non-ASCII text is valid UTF-8 by accident almost
 *     never, while servers' default {@code charset=ISO-8859-1} and templates' {@code encoding="UTF-8"} lie often;
 * <li>the HTTP {@code charset}, then the XML declaration's encoding, each only if the body decodes in it
 *     without error (the header first, as RFC 7303 says and feedparser does; but a header naming ISO-8859-1,
 *     ASCII or windows-1252, which servers add by default and nobody chose, yields to a declaration naming
 *     another encoding);
 * <li>UTF-8 with windows-1252 for stray bytes ({@link Utf8OrWindows1252}) when most non-ASCII bytes form UTF-8;
 * <li>a detector's guess ({@link CharsetDetection}), taken when no label was given, or when one was and
 *     the guess is a multi-byte encoding (whose structure makes it reliable);
 * <li>the label that failed, if a single-byte one (a stray unassigned byte becomes U+FFFD), else
 *     UTF-8 with windows-1252 for stray bytes ({@link Utf8OrWindows1252}).
 * </ol>
 * Labels go through {@link EncodingLabels} (ISO-8859-1 read as windows-1252...); unknown labels and
 * UTF-16/32 labels on an ASCII-compatible body are ignored. Never fails.
 */
final class XmlDecoding {

    // The declaration is searched for this far, so that junk before it does not hide it.
    private static final int DECLARATION_SEARCH = 4096;
    private static final Pattern ENCODING = Pattern.compile("^<\\?xml\\s[^>]*?encoding\\s*=\\s*[\"']([A-Za-z0-9._:()-]{1,40})[\"']");

    private XmlDecoding() {
    }

    static String decode(byte[] body, @Nullable String contentType) {
        String byBom = decodeByBom(body);
        if (byBom != null) {
            return byBom;
        }
        Charset wide = wideByNuls(body);
        if (wide != null) {
            return new String(body, wide);
        }
        Charset declared = asciiCompatible(EncodingLabels.charset(declaredEncoding(body)));
        Charset header = asciiCompatible(EncodingLabels.charset(charsetName(contentType)));
        Charset[] labels = isServerDefault(header) && declared != null && !declared.equals(header)
                ? new Charset[] {declared, header} : new Charset[] {header, declared};
        for (Charset label : labels) {
            if (label != null && EncodingLabels.isEscapeEncoding(label)) {
                return new String(body, label);
            }
        }
        String utf8 = strictUtf8(body);
        if (utf8 != null) {
            return utf8;
        }
        for (Charset label : labels) {
            String text = label == null || EncodingLabels.isUtf8(label) ? null : Utf8OrWindows1252.strict(body, label);
            if (text != null) {
                return text;
            }
        }
        return undeclared(body, labels[0] != null ? labels[0] : labels[1]);
    }

    /** The charset servers send when nobody configured one: ISO-8859-1 or ASCII (both read as windows-1252), or windows-1252. */
    private static boolean isServerDefault(@Nullable Charset header) {
        return header != null && header.name().equalsIgnoreCase("windows-1252");
    }

    /** No label fits: the detector's guess if it is trustworthy here, else the failed label or the UTF-8/windows-1252 mix. */
    private static String undeclared(byte[] body, @Nullable Charset label) {
        if (Utf8OrWindows1252.mostlyUtf8(body)) {
            return Utf8OrWindows1252.decode(body);
        }
        Charset detected = CharsetDetection.detect(body);
        if (detected != null && !EncodingLabels.isUtf8(detected)
                && (label == null || CharsetDetection.isMultiByte(detected))) {
            return new String(body, detected);
        }
        if (label != null && !EncodingLabels.isUtf8(label) && label.newEncoder().maxBytesPerChar() == 1) {
            return new String(body, label);
        }
        return Utf8OrWindows1252.decode(body);
    }

    /** The body as UTF-8, or null if it is not well-formed UTF-8. Fast path: the JDK's decoder, strict only if it replaced something. */
    private static @Nullable String strictUtf8(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        return text.indexOf('\uFFFD') < 0 ? text : Utf8OrWindows1252.strict(body, StandardCharsets.UTF_8);
    }

    /** The body decoded by its BOM, or null without one. The BOM wins over any label: it cannot be there by accident. */
    private static @Nullable String decodeByBom(byte[] b) {
        if (startsWith(b, 0xEF, 0xBB, 0xBF)) {
            return new String(b, 3, b.length - 3, StandardCharsets.UTF_8);
        }
        if (startsWith(b, 0x00, 0x00, 0xFE, 0xFF)) {
            return new String(b, 4, b.length - 4, Charset.forName("UTF-32BE"));
        }
        if (startsWith(b, 0xFF, 0xFE, 0x00, 0x00)) {
            return new String(b, 4, b.length - 4, Charset.forName("UTF-32LE"));
        }
        if (startsWith(b, 0xFE, 0xFF)) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16BE);
        }
        if (startsWith(b, 0xFF, 0xFE)) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16LE);
        }
        return null;
    }

    /** UTF-32 or UTF-16 without a BOM, as XML 1.0 appendix F tells them from the first four bytes ({@code < ?} or whitespace). */
    private static @Nullable Charset wideByNuls(byte[] b) {
        if (b.length < 4) {
            return null;
        }
        boolean z0 = b[0] == 0;
        boolean z1 = b[1] == 0;
        boolean z2 = b[2] == 0;
        boolean z3 = b[3] == 0;
        if (z0 && z1 && z2 && !z3) {
            return Charset.forName("UTF-32BE");
        }
        if (!z0 && z1 && z2 && z3) {
            return Charset.forName("UTF-32LE");
        }
        if (z0 && !z1 && z2 && !z3) {
            return StandardCharsets.UTF_16BE;
        }
        if (!z0 && z1 && !z2 && z3) {
            return StandardCharsets.UTF_16LE;
        }
        return null;
    }

    private static boolean startsWith(byte[] b, int... prefix) {
        if (b.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((b[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The encoding named by the XML declaration, read from the first bytes as ASCII; null if none. */
    static @Nullable String declaredEncoding(byte[] body) {
        String head = new String(body, 0, Math.min(body.length, DECLARATION_SEARCH), StandardCharsets.ISO_8859_1);
        int at = head.indexOf("<?xml");
        if (at < 0) {
            return null;
        }
        Matcher matcher = ENCODING.matcher(head).region(at, head.length());
        return matcher.lookingAt() ? matcher.group(1) : null;
    }

    /** A label is ignored when the body cannot be in it: UTF-16 named for a body whose prolog reads as ASCII. */
    private static @Nullable Charset asciiCompatible(@Nullable Charset charset) {
        return charset == null || EncodingLabels.isAsciiCompatible(charset) || EncodingLabels.isEscapeEncoding(charset)
                ? charset : null;
    }

    static @Nullable String charsetName(@Nullable String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String parameter : contentType.split(";")) {
            int equals = parameter.indexOf('=');
            if (equals > 0 && parameter.substring(0, equals).strip().equalsIgnoreCase("charset")) {
                String value = parameter.substring(equals + 1).strip().replace("\"", "").replace("'", "");
                return value.isEmpty() ? null : value;
            }
        }
        return null;
    }
}
