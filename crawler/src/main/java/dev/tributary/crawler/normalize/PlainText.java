package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.parser.Parser;
import org.jsoup.parser.Tag;
import org.jspecify.annotations.Nullable;

/**
 * One line of plain text (titles, authors, tags): tags stripped, entities decoded, whitespace collapsed,
 * length capped. HTML is decoded once and its tags stripped once; plain text is taken as written, except
 * that HTML tags in it (feeds put {@code <b>} in "text" titles) are stripped and entity references
 * left after decoding ({@code &amp;amp;} double escapes) are decoded once more: no client should show {@code &amp;}.
 */
final class PlainText {

    // A known HTML tag, so that "List<T>" or "a <b c" in plain text stays as written.
    private static final Pattern TAG = Pattern.compile("</?([a-zA-Z][a-zA-Z0-9]{0,15})(?:[\\s/][^<>]*)?>");
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
        if (html && text.indexOf('<') >= 0 || !html && hasHtmlTag(text)) {
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

    private static boolean hasHtmlTag(String text) {
        if (text.indexOf('<') < 0) {
            return false;
        }
        Matcher tag = TAG.matcher(text);
        while (tag.find()) {
            if (Tag.isKnownTag(tag.group(1).toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
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
