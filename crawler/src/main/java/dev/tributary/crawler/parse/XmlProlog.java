package dev.tributary.crawler.parse;

import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What comes before an XML document's root element: whether it declares a DTD, and the root's name.
 * Read without an XML parser, so a refusal can say why (HTML page, DTD) in words.
 *
 * @param doctypeStart where its {@code <!DOCTYPE} starts, -1 if none
 * @param doctypeEnd just past the end of its {@code <!DOCTYPE ...>}, -1 if none or unterminated
 * @param rootName the root element's name in lower case, null if not found
 */
record XmlProlog(int doctypeStart, int doctypeEnd, @Nullable String rootName) {

    /**
     * Netscape's RSS 0.91 DTD, declared by many old feeds. Its only effect would be HTML entities,
     * which {@link XmlRepair} already turns into character references; so this one DOCTYPE, without an
     * internal subset, is cut out rather than refused. Every other DOCTYPE is refused.
     */
    private static final Pattern NETSCAPE_RSS_091 = Pattern.compile(
            "<!DOCTYPE\\s+rss\\s+PUBLIC\\s+([\"'])-//Netscape Communications//DTD RSS 0\\.91//EN\\1(\\s+([\"'])[^\"'<>\\[\\]]*\\3)?\\s*>",
            Pattern.CASE_INSENSITIVE);

    /**
     * An XHTML DTD by public identifier, without an internal subset (only entities, which {@link XmlRepair}
     * has already mended), or HTML5's {@code <!DOCTYPE html>}, which names no DTD at all.
     */
    private static final Pattern XHTML_DTD = Pattern.compile(
            "<!DOCTYPE\\s+html\\s*>|<!DOCTYPE\\s+html\\s+PUBLIC\\s+([\"'])-//W3C//DTD XHTML[^\"'<>\\[\\]]*\\1(\\s+([\"'])[^\"'<>\\[\\]]*\\3)?\\s*>",
            Pattern.CASE_INSENSITIVE);

    static XmlProlog scan(String xml) {
        int n = xml.length();
        int doctypeStart = -1;
        int doctypeEnd = -1;
        int i = 0;
        while (i < n) {
            while (i < n && Character.isWhitespace(xml.charAt(i))) {
                i++;
            }
            if (xml.startsWith("<?", i)) {
                i = after(xml, i, "?>");
            } else if (xml.startsWith("<!--", i)) {
                i = after(xml, i, "-->");
            } else if (xml.regionMatches(true, i, "<!DOCTYPE", 0, 9)) {
                doctypeStart = i;
                doctypeEnd = doctypeEnd(xml, i + 9);
                i = doctypeEnd < 0 ? n : doctypeEnd;
            } else {
                return new XmlProlog(doctypeStart, doctypeEnd, rootName(xml, i));
            }
        }
        return new XmlProlog(doctypeStart, doctypeEnd, null);
    }

    boolean hasDoctype() {
        return doctypeStart >= 0;
    }

    /** Whether this is an HTML page (HTML or XHTML root, or DOCTYPE on a root that is not a feed's) rather than a feed. */
    boolean isHtml(String xml) {
        return "html".equals(rootName) || hasDoctype() && !isFeedRoot() && xml.regionMatches(true, doctypeStart, "<!DOCTYPE html", 0, 14);
    }

    /**
     * The document without its DOCTYPE if that is a harmless one on a feed: Netscape's RSS 0.91, or an
     * XHTML DTD (PUBLIC, no internal subset) that a blog template put above its RSS; else null.
     */
    @Nullable String withoutHarmlessDoctype(String xml) {
        if (!hasDoctype() || doctypeEnd < 0 || !isFeedRoot()) {
            return null;
        }
        boolean netscape = "rss".equals(rootName) && NETSCAPE_RSS_091.matcher(xml).region(doctypeStart, doctypeEnd).matches();
        if (!netscape && !XHTML_DTD.matcher(xml).region(doctypeStart, doctypeEnd).matches()) {
            return null;
        }
        return xml.substring(0, doctypeStart) + xml.substring(doctypeEnd);
    }

    private boolean isFeedRoot() {
        return "rss".equals(rootName) || "feed".equals(rootName) || rootName != null && rootName.endsWith(":rdf")
                || rootName != null && (rootName.endsWith(":rss") || rootName.endsWith(":feed"));
    }

    private static int after(String xml, int from, String terminator) {
        int end = xml.indexOf(terminator, from + 2);
        return end < 0 ? xml.length() : end + terminator.length();
    }

    /** Just past the {@code >} closing a DOCTYPE, skipping quoted strings and an internal subset; -1 if none. */
    private static int doctypeEnd(String xml, int from) {
        for (int i = from; i < xml.length(); i++) {
            char c = xml.charAt(i);
            int skipTo = c == '"' || c == '\'' ? xml.indexOf(c, i + 1) : c == '[' ? xml.indexOf(']', i + 1) : i;
            if (skipTo < 0) {
                return -1;
            }
            if (c == '>') {
                return i + 1;
            }
            i = skipTo;
        }
        return -1;
    }

    private static @Nullable String rootName(String xml, int at) {
        if (at + 1 >= xml.length() || xml.charAt(at) != '<') {
            return null;
        }
        int end = at + 1;
        while (end < xml.length() && end - at < 100 && !Character.isWhitespace(xml.charAt(end))
                && xml.charAt(end) != '>' && xml.charAt(end) != '/') {
            end++;
        }
        String name = xml.substring(at + 1, end).toLowerCase(Locale.ROOT);
        return name.isEmpty() ? null : name;
    }
}
