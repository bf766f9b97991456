package dev.tributary.crawler.parse;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A charset label as feeds write it (HTTP {@code charset}, XML {@code encoding}, a detector's answer)
 * to the charset to decode with. Like the WHATWG encoding standard, legacy labels decode as the
 * superset their authors' tools really wrote: ISO-8859-1 and US-ASCII as windows-1252 (so a 0x92
 * is a quote, not a control character), GB2312 as GB18030, Big5 as Big5-HKSCS, EUC-KR as windows-949,
 * Shift_JIS as windows-31j.
 */
final class EncodingLabels {

    private static final String PROLOG = "<?xml version=\"1.0\" encoding=\"";
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    private static final Map<String, String> SUPERSETS = Map.ofEntries(
            Map.entry("iso-8859-1", "windows-1252"), Map.entry("iso8859-1", "windows-1252"),
            Map.entry("iso_8859-1", "windows-1252"), Map.entry("latin1", "windows-1252"),
            Map.entry("latin-1", "windows-1252"), Map.entry("l1", "windows-1252"),
            Map.entry("us-ascii", "windows-1252"), Map.entry("ascii", "windows-1252"),
            Map.entry("iso-8859-9", "windows-1254"), Map.entry("latin5", "windows-1254"),
            Map.entry("iso-8859-11", "x-windows-874"), Map.entry("tis-620", "x-windows-874"),
            Map.entry("gb2312", "GB18030"), Map.entry("gb_2312-80", "GB18030"), Map.entry("gbk", "GB18030"),
            Map.entry("x-gbk", "GB18030"), Map.entry("euc-cn", "GB18030"),
            Map.entry("big5", "Big5-HKSCS"), Map.entry("big5-hkscs", "Big5-HKSCS"), Map.entry("x-x-big5", "Big5-HKSCS"),
            Map.entry("euc-kr", "x-windows-949"), Map.entry("ks_c_5601-1987", "x-windows-949"),
            Map.entry("shift_jis", "windows-31j"), Map.entry("shift-jis", "windows-31j"), Map.entry("sjis", "windows-31j"),
            Map.entry("x-sjis", "windows-31j"), Map.entry("ms_kanji", "windows-31j"),
            Map.entry("utf8", "UTF-8"), Map.entry("unicode-1-1-utf-8", "UTF-8"));

    private EncodingLabels() {
    }

    /** The charset for {@code label}, or null when the label names none Java knows (a bogus label is ignored, not fatal). */
    static @Nullable Charset charset(@Nullable String label) {
        if (label == null) {
            return null;
        }
        String name = label.strip().replace("\"", "").replace("'", "");
        if (name.isEmpty() || name.length() > 40) {
            return null;
        }
        String superset = SUPERSETS.get(name.toLowerCase(Locale.ROOT));
        try {
            return Charset.forName(superset != null ? superset : name);
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    /** Whether this charset spells the XML declaration in ASCII, so a body whose prolog reads as ASCII may be in it (not UTF-16, EBCDIC...). */
    static boolean isAsciiCompatible(Charset charset) {
        try {
            return charset.canEncode() && Arrays.equals(PROLOG.getBytes(charset), PROLOG.getBytes(StandardCharsets.US_ASCII));
        } catch (UnsupportedOperationException decodeOnly) {
            return false;
        }
    }

    /** Whether this is a 7-bit escape encoding whose bytes are all ASCII yet mean other characters. */
    static boolean isEscapeEncoding(Charset charset) {
        String name = charset.name().toUpperCase(Locale.ROOT);
        return name.startsWith("ISO-2022") || name.startsWith("X-ISO-2022") || name.equals("UTF-7");
    }

    static Charset windows1252() {
        return WINDOWS_1252;
    }

    static boolean isUtf8(Charset charset) {
        return charset.equals(StandardCharsets.UTF_8);
    }
}
