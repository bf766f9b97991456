package dev.tributary.api.post;

/**
 * A person's plain text as the safe HTML summary of their post: every character escaped, blank
 * lines as paragraphs, single line breaks kept. Characters XML cannot carry (controls, lone
 * surrogates) are dropped, so the post can also be exported as RSS and Atom.
 */
final class PostText {

    private PostText() {
    }

    static String toHtml(String text) {
        String clean = xmlSafe(text).replace("\r\n", "\n").replace('\r', '\n').strip();
        StringBuilder html = new StringBuilder(clean.length() + 16);
        for (String paragraph : clean.split("\n\\s*\n")) {
            String stripped = paragraph.strip();
            if (stripped.isEmpty()) {
                continue;
            }
            html.append("<p>").append(escape(stripped).replace("\n", "<br>")).append("</p>");
        }
        return html.toString();
    }

    /** {@code text} without the characters XML 1.0 does not allow. */
    static String xmlSafe(String text) {
        StringBuilder safe = new StringBuilder(text.length());
        text.codePoints().filter(PostText::allowedInXml).forEach(safe::appendCodePoint);
        return safe.toString();
    }

    private static boolean allowedInXml(int c) {
        return c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
                || c >= 0x10000 && c <= 0x10FFFF;
    }

    private static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
