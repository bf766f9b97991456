package dev.tributary.crawler.parse;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Strict decoding, and the last resort for bodies no charset decodes cleanly: UTF-8 where the bytes
 * form UTF-8, windows-1252 for each byte that does not. Feeds assembled from a UTF-8 template and
 * windows-1252 text (a CMS pasting from Word) are common; this reads both halves as meant rather than
 * turning the curly quotes into U+FFFD.
 */
final class Utf8OrWindows1252 {

    private static final String WINDOWS_1252_HIGH = windows1252High();
    private static final Pattern C1_REFERENCE = Pattern.compile("&#(?:0*(1[2-5][0-9])|[xX]0*([89][0-9a-fA-F]));");

    private Utf8OrWindows1252() {
    }

    /** The body in {@code charset}, or null if any byte sequence is invalid or unmappable in it. */
    static @Nullable String strict(byte[] body, Charset charset) {
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException | RuntimeException invalid) {
            return null;
        }
    }

    static String decode(byte[] body) {
        StringBuilder out = new StringBuilder(body.length);
        int i = 0;
        while (i < body.length) {
            int b = body[i] & 0xFF;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int length = sequenceLength(body, i);
            if (length == 0) {
                out.append(WINDOWS_1252_HIGH.charAt(b - 0x80));
                i++;
            } else {
                out.append(new String(body, i, length, StandardCharsets.UTF_8));
                i += length;
            }
        }
        return out.toString();
    }

    /** Whether more of the body's non-ASCII bytes start well-formed UTF-8 sequences than do not: UTF-8 with stray bytes, not a legacy charset. */
    static boolean mostlyUtf8(byte[] body) {
        int sequences = 0;
        int stray = 0;
        int i = 0;
        while (i < body.length) {
            if (body[i] >= 0) {
                i++;
                continue;
            }
            int length = sequenceLength(body, i);
            if (length == 0) {
                stray++;
                i++;
            } else {
                sequences++;
                i += length;
            }
        }
        return sequences > stray;
    }

    /** The length of the well-formed UTF-8 sequence at {@code at} (RFC 3629: no overlongs, surrogates or beyond U+10FFFF); 0 if none. */
    static int sequenceLength(byte[] b, int at) {
        int lead = b[at] & 0xFF;
        int length;
        int secondMin = 0x80;
        int secondMax = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            secondMin = lead == 0xE0 ? 0xA0 : 0x80;
            secondMax = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            secondMin = lead == 0xF0 ? 0x90 : 0x80;
            secondMax = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (at + length > b.length) {
            return 0;
        }
        int second = b[at + 1] & 0xFF;
        if (second < secondMin || second > secondMax) {
            return 0;
        }
        for (int k = 2; k < length; k++) {
            int next = b[at + k] & 0xFF;
            if (next < 0x80 || next > 0xBF) {
                return 0;
            }
        }
        return length;
    }

    /**
     * The text with C1 control characters (U+0080..U+009F) read as the windows-1252 characters of those
     * bytes: they are never meant, but are what a windows-1252 "smart quote" becomes when decoded as
     * ISO-8859-1 by a tool upstream (feedparser and HTML5 map them so). The five bytes windows-1252
     * leaves unassigned stay as they are. Returns its input itself when there is none.
     */
    static String mapC1(String text) {
        return mapC1References(mapC1Characters(text));
    }

    /** {@code &#146;} and {@code &#x92;} as the characters {@link #mapC1} makes of them (the XML parser would give the controls). */
    private static String mapC1References(String text) {
        if (!text.contains("&#")) {
            return text;
        }
        return C1_REFERENCE.matcher(text).replaceAll(reference -> {
            int code = reference.group(1) != null ? Integer.parseInt(reference.group(1)) : Integer.parseInt(reference.group(2), 16);
            char mapped = code >= 0x80 && code <= 0x9F ? WINDOWS_1252_HIGH.charAt(code - 0x80) : '\uFFFD';
            return mapped == '\uFFFD' ? Matcher.quoteReplacement(reference.group()) : Matcher.quoteReplacement(String.valueOf(mapped));
        });
    }

    private static String mapC1Characters(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80 && c <= 0x9F) {
                char mapped = WINDOWS_1252_HIGH.charAt(c - 0x80);
                if (mapped != '\uFFFD') {
                    if (out == null) {
                        out = new StringBuilder(text.length()).append(text, 0, i);
                    }
                    out.append(mapped);
                    continue;
                }
            }
            if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    /** Bytes 0x80..0xFF in windows-1252; its five unassigned bytes are U+FFFD. */
    private static String windows1252High() {
        byte[] high = new byte[128];
        for (int i = 0; i < high.length; i++) {
            high[i] = (byte) (0x80 + i);
        }
        return new String(high, EncodingLabels.windows1252());
    }
}
