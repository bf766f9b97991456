package dev.tributary.crawler.parse;

import java.util.Set;
import org.jsoup.nodes.Entities;
import org.jspecify.annotations.Nullable;

/**
 * Repairs, in one pass, the errors real feeds carry that an XML parser refuses: junk before the
 * document (whitespace, PHP warnings), HTML entities ({@code &nbsp;}, {@code &eacute;}, any HTML5 name),
 * bare ampersands, and characters XML forbids (control bytes, lone surrogates, {@code &#1;}).
 * CDATA sections, comments and processing instructions are copied as they are, bar forbidden characters.
 * Returns its input itself when there is nothing to repair, so a well-formed feed costs one scan.
 *
 * <p>This replaces Rome's {@code XmlFixerReader}, which knows only the HTML 4 entities, leaves
 * control characters in, and reads one character at a time through a state machine.
 */
final class XmlRepair {

    // The start of junk-prefixed documents is searched for their XML declaration this far.
    private static final int DECLARATION_SEARCH = 4096;
    private static final int MAX_ENTITY_NAME = 32;
    private static final Set<String> XML_ENTITIES = Set.of("amp", "lt", "gt", "quot", "apos");

    private final String xml;
    private @Nullable StringBuilder out;
    private int copied;

    private XmlRepair(String xml) {
        this.xml = xml;
    }

    static String repair(String xml) {
        return new XmlRepair(xml).run();
    }

    private String run() {
        int i = documentStart();
        copied = i;
        int verbatimEnd = -1;
        int n = xml.length();
        while (i < n) {
            char c = xml.charAt(i);
            if (c == '<' && i >= verbatimEnd) {
                verbatimEnd = verbatimEnd(i);
                i++;
            } else if (c == '&' && i >= verbatimEnd) {
                i = entity(i);
            } else if (c >= 0x20 && c < 0xD800 || c == '\n' || c == '\r' || c == '\t') {
                i++;
            } else {
                i = unusual(i);
            }
        }
        return result();
    }

    /** Where the document starts: its XML declaration if junk precedes it, else the first tag. */
    private int documentStart() {
        int first = xml.indexOf('<');
        if (first < 0) {
            return 0;
        }
        for (int at = first; at >= 0 && at < DECLARATION_SEARCH; at = xml.indexOf('<', at + 1)) {
            if (xml.startsWith("<?xml", at) && at + 5 < xml.length() && Character.isWhitespace(xml.charAt(at + 5))) {
                return at;
            }
        }
        return first;
    }

    /** The end of the CDATA section, comment or processing instruction starting at {@code at}; {@code at} if none does. */
    private int verbatimEnd(int at) {
        String terminator = xml.startsWith("<![CDATA[", at) ? "]]>"
                : xml.startsWith("<!--", at) ? "-->"
                : xml.startsWith("<?", at) ? "?>"
                : null;
        if (terminator == null) {
            return at;
        }
        int end = xml.indexOf(terminator, at + 2);
        return end < 0 ? xml.length() : end + terminator.length();
    }

    /** Handles the {@code &} at {@code at}; returns where scanning resumes. */
    private int entity(int at) {
        int n = xml.length();
        int nameStart = at + 1;
        if (nameStart < n && xml.charAt(nameStart) == '#') {
            return characterReference(at);
        }
        int end = nameStart;
        while (end < n && end - nameStart < MAX_ENTITY_NAME && isAsciiLetterOrDigit(xml.charAt(end))) {
            end++;
        }
        if (end == nameStart || end >= n || xml.charAt(end) != ';') {
            replace(at, at + 1, "&amp;");
            return at + 1;
        }
        String name = xml.substring(nameStart, end);
        if (XML_ENTITIES.contains(name)) {
            return end + 1;
        }
        String value = Entities.getByName(name);
        // An HTML entity becomes numeric references; an unknown name stays as the text it was.
        replace(at, value.isEmpty() ? at + 1 : end + 1, value.isEmpty() ? "&amp;" : numericReferences(value));
        return value.isEmpty() ? at + 1 : end + 1;
    }

    /** {@code &#...;}: kept if it names a character XML allows, dropped if not, escaped if it is not a reference at all. */
    private int characterReference(int at) {
        int n = xml.length();
        int digits = at + 2;
        boolean hex = digits < n && (xml.charAt(digits) == 'x' || xml.charAt(digits) == 'X');
        if (hex) {
            digits++;
        }
        long codePoint = 0;
        int end = digits;
        while (end < n && end - digits < 8 && Character.digit(xml.charAt(end), hex ? 16 : 10) >= 0) {
            codePoint = codePoint * (hex ? 16 : 10) + Character.digit(xml.charAt(end), hex ? 16 : 10);
            end++;
        }
        if (end == digits || end >= n || xml.charAt(end) != ';') {
            replace(at, at + 1, "&amp;");
            return at + 1;
        }
        if (!isXmlChar(codePoint)) {
            replace(at, end + 1, "");
        }
        return end + 1;
    }

    /** A character outside the common ranges at {@code at}: kept if XML allows it (a surrogate pair), else dropped. */
    private int unusual(int at) {
        char c = xml.charAt(at);
        if (Character.isHighSurrogate(c) && at + 1 < xml.length() && Character.isLowSurrogate(xml.charAt(at + 1))) {
            return at + 2;
        }
        if (c >= 0xE000 && c <= 0xFFFD) {
            return at + 1;
        }
        replace(at, at + 1, "");
        return at + 1;
    }

    private static boolean isXmlChar(long c) {
        return c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
                || c >= 0x10000 && c <= 0x10FFFF;
    }

    private static boolean isAsciiLetterOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    private static String numericReferences(String value) {
        StringBuilder refs = new StringBuilder();
        value.codePoints().forEach(codePoint -> refs.append("&#").append(codePoint).append(';'));
        return refs.toString();
    }

    private void replace(int from, int to, String with) {
        if (out == null) {
            out = new StringBuilder(xml.length() + 64);
        }
        out.append(xml, copied, from).append(with);
        copied = to;
    }

    private String result() {
        if (out == null) {
            return copied == 0 ? xml : xml.substring(copied);
        }
        return out.append(xml, copied, xml.length()).toString();
    }
}
