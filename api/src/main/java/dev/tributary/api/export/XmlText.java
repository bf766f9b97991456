package dev.tributary.api.export;

import org.jspecify.annotations.Nullable;

/**
 * Text made safe for XML 1.0: characters XML cannot carry at all (most control characters,
 * lone surrogates, U+FFFE/U+FFFF) are dropped. Markup and {@code ]]>} need nothing here: the
 * XML writer escapes them; these characters it would refuse, failing the whole feed.
 */
final class XmlText {

    private XmlText() {
    }

    static @Nullable String clean(@Nullable String text) {
        if (text == null) {
            return null;
        }
        int first = firstIllegal(text);
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        out.append(text, 0, first);
        for (int i = first; i < text.length(); ) {
            int c = text.codePointAt(i);
            int width = Character.charCount(c);
            if (legal(c) && !(width == 1 && Character.isSurrogate((char) c))) {
                out.appendCodePoint(c);
            }
            i += width;
        }
        return out.toString();
    }

    private static int firstIllegal(String text) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int width = Character.charCount(c);
            if (!legal(c) || (width == 1 && Character.isSurrogate((char) c))) {
                return i;
            }
            i += width;
        }
        return -1;
    }

    private static boolean legal(int c) {
        return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
                || (c >= 0x10000 && c <= 0x10FFFF);
    }
}
