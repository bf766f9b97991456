package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Entities;
import org.jsoup.parser.Parser;
import org.jspecify.annotations.Nullable;

/**
 * One line of plain text (titles, authors, tags): tags stripped, entities decoded, whitespace collapsed,
 * length capped. HTML is decoded once and its tags stripped once; plain text is taken as written, except
 * that text which looks like HTML by feedparser's test (feeds put {@code <b>...</b>} in "text" titles) is read
 * as HTML, and entity references left after decoding ({@code &amp;amp;} double escapes) are decoded once more:
 * no client should show {@code &amp;}. Angle brackets that are not such markup ({@code List<String>},
 * {@code HTML5 <video> support}) are text and stay.
 */
final class PlainText {

    // feedparser's looks_like_html: a close tag or an entity reference is needed, every tag must be one of
    // its sanitiser's acceptable elements and every named entity a real one; so "List<String>" stays text.
    private static final Pattern CLOSE_TAG = Pattern.compile("</(\\w+)>");
    private static final Pattern ANY_ENTITY = Pattern.compile("&#?\\w+;");
    private static final Pattern TAG_NAME = Pattern.compile("</?(\\w+)");
    private static final Pattern NAMED_ENTITY = Pattern.compile("&(\\w+);");
    private static final Set<String> ACCEPTABLE_ELEMENTS = Set.of("a", "abbr", "acronym", "address", "area", "article",
            "aside", "audio", "b", "big", "blockquote", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
            "colgroup", "command", "datagrid", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt",
            "em", "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
            "header", "hr", "i", "img", "input", "ins", "kbd", "keygen", "label", "legend", "li", "m", "map", "menu", "meter",
            "multicol", "nav", "nextid", "noscript", "ol", "optgroup", "option", "output", "p", "pre", "progress", "q", "rp",
            "rt", "ruby", "s", "samp", "section", "select", "small", "sound", "source", "spacer", "span", "strike", "strong",
            "sub", "sup", "table", "tbody", "td", "textarea", "tfoot", "th", "thead", "time", "tr", "tt", "u", "ul", "var",
            "video");
    private static final Pattern ENTITY = Pattern.compile("&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});");

    private PlainText() {
    }

    static @Nullable String of(@Nullable Text text, int maxLength) {
        return text == null ? null : of(text.value(), text.html(), maxLength);
    }

    static @Nullable String of(@Nullable String value, boolean html, int maxLength) {
        if (value == null) {
            return null;
        }
        // Beyond a few times the cap, the rest cannot survive the cut anyway: not worth parsing.
        String text = value.length() > maxLength * 4 ? value.substring(0, maxLength * 4) : value;
        if (html && text.indexOf('<') >= 0 || !html && (looksLikeHtml(text) || hasMarkupDeclaration(text))) {
            text = Jsoup.parseBodyFragment(text).body().text();
        } else if (html && text.indexOf('&') >= 0) {
            text = Parser.unescapeEntities(text, false);
        }
        if (text.indexOf('&') >= 0 && ENTITY.matcher(text).find()) {
            text = Parser.unescapeEntities(text, false);
        }
        String line = collapse(text);
        return line.isEmpty() ? null : cut(line, maxLength);
    }

    /** feedparser 6's {@code looks_like_html}, which it asks of RSS titles before treating them as HTML. */
    static boolean looksLikeHtml(String text) {
        if (!CLOSE_TAG.matcher(text).find() && !ANY_ENTITY.matcher(text).find()) {
            return false;
        }
        Matcher tag = TAG_NAME.matcher(text);
        while (tag.find()) {
            if (!ACCEPTABLE_ELEMENTS.contains(tag.group(1).toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        Matcher entity = NAMED_ENTITY.matcher(text);
        while (entity.find()) {
            if (!Entities.isNamedEntity(entity.group(1))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A comment or a CDATA wrapper left escaped in the text ({@code &lt;![CDATA[...]]&gt;}): markup the
     * feed's tool failed to unwrap, never words; read as HTML so only its content is kept.
     */
    private static boolean hasMarkupDeclaration(String text) {
        int comment = text.indexOf("<!--");
        return comment >= 0 && text.indexOf("-->", comment + 4) >= 0 || text.contains("<![CDATA[") && text.contains("]]>");
    }

    /** Runs of whitespace (and no-break spaces) become one space; control characters go. */
    static String collapse(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || c == '\u00A0') {
                space = !out.isEmpty();
            } else if (!Character.isISOControl(c)) {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
            }
        }
        return out.toString();
    }

    /** At most {@code maxLength} characters, ending in an ellipsis if cut, never splitting a surrogate pair. */
    static String cut(String text, int maxLength) {
        if (text.length() <= maxLength) {
            return text;
        }
        int end = maxLength - 1;
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end).stripTrailing() + "…";
    }
}
