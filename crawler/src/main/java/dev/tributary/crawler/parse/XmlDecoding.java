package dev.tributary.crawler.parse;

import com.rometools.rome.io.XmlReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Turns an XML body into characters. A byte order mark decides; otherwise Rome's {@link XmlReader}
 * in lenient mode: the XML declaration's encoding, then the HTTP charset, then UTF-8. Malformed
 * byte sequences become U+FFFD rather than errors.
 */
final class XmlDecoding {

    private XmlDecoding() {
    }

    static String decode(byte[] body, @Nullable String contentType) {
        String bomDecoded = decodeByBom(body);
        if (bomDecoded != null) {
            return bomDecoded;
        }
        try (Reader reader = new XmlReader(new ByteArrayInputStream(body), readerContentType(contentType), true)) {
            return readAll(reader, body.length);
        } catch (IOException | RuntimeException unreadable) {
            // An unknown charset name, or a declaration Rome chokes on: the header's charset, else UTF-8.
            return new String(body, headerCharset(contentType));
        }
    }

    /**
     * The body decoded by its BOM, or null without one. Rome's lenient reader lets the declaration
     * override a BOM, and decodes UTF-16LE with a BOM but {@code encoding="UTF-16"} as big-endian.
     */
    private static @Nullable String decodeByBom(byte[] b) {
        if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
            return new String(b, 3, b.length - 3, StandardCharsets.UTF_8);
        }
        if (b.length >= 2 && (b[0] & 0xFF) == 0xFE && (b[1] & 0xFF) == 0xFF) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16BE);
        }
        if (b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16LE);
        }
        return null;
    }

    /**
     * The content type to give Rome. Rome follows RFC 3023, which makes a {@code text/*} body without
     * a charset US-ASCII; real feeds served so are UTF-8 or say their encoding in the declaration.
     */
    static String readerContentType(@Nullable String contentType) {
        String mime = Syntax.mime(contentType);
        if (mime == null || (mime.startsWith("text/") && charsetName(contentType) == null)) {
            return "application/xml";
        }
        return contentType;
    }

    private static Charset headerCharset(@Nullable String contentType) {
        String name = charsetName(contentType);
        try {
            return name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
        } catch (IllegalArgumentException unknown) {
            return StandardCharsets.UTF_8;
        }
    }

    private static @Nullable String charsetName(@Nullable String contentType) {
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

    private static String readAll(Reader reader, int sizeHint) throws IOException {
        StringBuilder text = new StringBuilder(sizeHint);
        char[] buffer = new char[8192];
        for (int read; (read = reader.read(buffer)) != -1; ) {
            text.append(buffer, 0, read);
        }
        return text.toString();
    }
}
