package dev.tributary.crawler.parse;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The syntax a body is written in, told from its first significant character (the content type only breaks ties). */
enum Syntax {
    XML, JSON, EMPTY;

    static Syntax of(byte[] body, @Nullable String contentType) {
        int first = firstSignificantChar(body);
        if (first == -1) {
            return EMPTY;
        }
        if (first == '{') {
            return JSON;
        }
        // Anything else is XML unless the server says JSON: XML parsing skips junk before the root.
        return first != '<' && isJsonType(contentType) ? JSON : XML;
    }

    /** The first character that is not a BOM or whitespace, reading UTF-16 when a UTF-16 BOM says so; -1 if none. */
    private static int firstSignificantChar(byte[] body) {
        boolean utf16be = body.length >= 2 && (body[0] & 0xFF) == 0xFE && (body[1] & 0xFF) == 0xFF;
        boolean utf16le = body.length >= 2 && (body[0] & 0xFF) == 0xFF && (body[1] & 0xFF) == 0xFE;
        if (utf16be || utf16le) {
            for (int i = 2; i + 1 < body.length; i += 2) {
                int c = utf16be ? (body[i] & 0xFF) << 8 | (body[i + 1] & 0xFF) : (body[i + 1] & 0xFF) << 8 | (body[i] & 0xFF);
                if (!isSpace(c)) {
                    return c;
                }
            }
            return -1;
        }
        int start = body.length >= 3 && (body[0] & 0xFF) == 0xEF && (body[1] & 0xFF) == 0xBB && (body[2] & 0xFF) == 0xBF ? 3 : 0;
        for (int i = start; i < body.length; i++) {
            int c = body[i] & 0xFF;
            // UTF-16 without a BOM puts a NUL beside each ASCII character: skip it.
            if (!isSpace(c) && c != 0) {
                return c;
            }
        }
        return -1;
    }

    private static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    static boolean isJsonType(@Nullable String contentType) {
        String mime = mime(contentType);
        return mime != null && (mime.equals("application/json") || mime.endsWith("+json"));
    }

    /** The MIME type of a Content-Type header, lower case without parameters; null if none. */
    static @Nullable String mime(@Nullable String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        String mime = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return mime.isEmpty() ? null : mime;
    }
}
