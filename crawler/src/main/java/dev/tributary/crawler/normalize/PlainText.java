package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Text;
import org.jsoup.Jsoup;
import org.jsoup.parser.Parser;
import org.jspecify.annotations.Nullable;

/** One line of plain text (titles, authors, tags): tags stripped, entities decoded, whitespace collapsed, length capped. */
final class PlainText {

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
        if (html && text.indexOf('<') >= 0) {
            text = Jsoup.parseBodyFragment(text).body().text();
        } else if (html && text.indexOf('&') >= 0) {
            text = Parser.unescapeEntities(text, false);
        }
        String line = collapse(text);
        return line.isEmpty() ? null : cut(line, maxLength);
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
