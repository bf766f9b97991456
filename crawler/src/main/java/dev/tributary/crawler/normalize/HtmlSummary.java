package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.internal.StringUtil;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.safety.Cleaner;
import org.jsoup.safety.Safelist;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;
import org.jspecify.annotations.Nullable;

/**
 * Summaries as stored: the entry's HTML through jsoup's {@link Cleaner} with an allow-list (no
 * scripts, styles, frames, event handlers or non-http(s) urls; relative urls made absolute), plain
 * text escaped, then cut in the text, not the markup: the DOM is cut, so tags stay balanced and
 * entities whole. Thread-safe: the allow-list is built once and never changed.
 */
final class HtmlSummary {

    /**
     * A sanitised summary.
     *
     * @param html the HTML, null if nothing visible is left
     * @param textLength how many characters of visible text the whole summary had before the cut
     */
    record Summary(@Nullable String html, int textLength) {
        static final Summary NONE = new Summary(null, 0);
    }

    static final String ELLIPSIS = "…";
    private static final Pattern PAGE_START = Pattern.compile("\\s*(?:<\\?xml|<!doctype|<html)", Pattern.CASE_INSENSITIVE);
    private static final Pattern BODY = Pattern.compile("<body[\\s>/]", Pattern.CASE_INSENSITIVE);
    private static final Pattern DOCTYPE = Pattern.compile("\\s*(?:<\\?xml[^>]*>\\s*)?<!doctype[^\\[>]*(?:\\[[^\\]]*]\\s*)?>",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CDATA = Pattern.compile("<!\\[CDATA\\[(.*?)]]>", Pattern.DOTALL);
    private static final Pattern SELF_CLOSED_CONTAINER = Pattern.compile(
            "<(iframe|script|style|textarea|title|noscript|noembed|noframes|xmp|video|audio|object|canvas|svg|a|div|span|p)(\\s[^<>]*?)?\\s*/>",
            Pattern.CASE_INSENSITIVE);
    // The raw HTML read is capped, so a 10 MB description costs no more than a long one:
    // markup rarely outweighs text sixteen to one.
    private static final int MIN_INPUT = 16 * 1024;
    private static final int INPUT_PER_CHARACTER = 16;

    private final Cleaner cleaner = new Cleaner(safelist());
    private final int maxLength;
    private final int maxInput;

    HtmlSummary(int maxLength) {
        this.maxLength = maxLength;
        this.maxInput = (int) Math.min(Integer.MAX_VALUE / 2, Math.max(MIN_INPUT, (long) maxLength * INPUT_PER_CHARACTER));
    }

    /** The allow-list every stored HTML passes ({@link SafeHtml}). */
    static Safelist safelist() {
        return SafeHtml.safelist();
    }

    Summary sanitise(Text text, URI base) {
        String value = text.html() ? bodyOfPage(text.value()) : text.value();
        boolean inputCut = value.length() > maxInput;
        if (inputCut) {
            value = cutInput(value);
        }
        Document clean = text.html() ? cleaner.clean(Jsoup.parseBodyFragment(closeSelfClosed(unwrapCdata(value)), base.toString()))
                : plain(value);
        Element body = clean.body();
        Truncation truncation = new Truncation(maxLength);
        NodeTraversor.filter(truncation, body);
        truncation.finish(body, inputCut);
        if (truncation.textLength == 0 && body.getElementsByTag("img").isEmpty()) {
            return Summary.NONE;
        }
        clean.outputSettings().prettyPrint(false);
        return new Summary(body.html(), truncation.textLength);
    }

    /**
     * {@code <iframe/>} and its kind written XML-style: HTML ignores the slash, so all that follows would
     * become the element's (dropped) content. Closed explicitly, only the element goes.
     */
    static String closeSelfClosed(String html) {
        if (html.indexOf("/>") < 0) {
            return html;
        }
        return SELF_CLOSED_CONTAINER.matcher(html).replaceAll("<$1$2></$1>");
    }

    /**
     * A whole page given as HTML ({@code <!DOCTYPE html><html><head>...}, as some CMSs put in a description):
     * from its {@code <body>} on, so that a large head (inline CSS and scripts, often tens of kilobytes) does
     * not use up the input a summary reads and leave it empty; without a body tag, just without its
     * DOCTYPE (whose internal subset would show as text).
     */
    static String bodyOfPage(String html) {
        Matcher doctype = PAGE_START.matcher(html);
        if (!doctype.lookingAt()) {
            return html;
        }
        Matcher body = BODY.matcher(html);
        if (body.find()) {
            return html.substring(body.start());
        }
        Matcher declaration = DOCTYPE.matcher(html);
        return declaration.lookingAt() ? html.substring(declaration.end()) : html;
    }

    /**
     * HTML with CDATA markers left in it (an Atom 0.3 {@code mode="escaped"} body escaped once too often):
     * HTML has no CDATA, so a parser would show the markup inside as text. Unwrapped, it is the markup
     * it was meant to be, and is sanitised as such.
     */
    static String unwrapCdata(String html) {
        if (!html.contains("<![CDATA[")) {
            return html;
        }
        return CDATA.matcher(html).replaceAll(section -> Matcher.quoteReplacement(section.group(1)));
    }

    private static Document plain(String value) {
        Document document = Document.createShell("");
        document.body().appendChild(new TextNode(value));
        return document;
    }

    /** The raw input cut after a tag end (no half tag or entity) or, in long plain text, a space. */
    private String cutInput(String value) {
        int tagEnd = value.lastIndexOf('>', maxInput - 1);
        if (tagEnd >= maxInput / 2) {
            return value.substring(0, tagEnd + 1);
        }
        int space = value.lastIndexOf(' ', maxInput - 1);
        return value.substring(0, space >= maxInput / 2 ? space : maxInput);
    }

    /**
     * Keeps the first {@code maxLength} characters of text (whitespace collapsed outside {@code <pre>})
     * and as many elements, ends the last kept text with an ellipsis, and removes every node after it.
     * Nodes to remove are collected and removed at the end, once their text has been counted.
     */
    private static final class Truncation implements NodeFilter {

        private final int maxText;
        private final int maxElements;
        private final List<Node> doomed = new ArrayList<>();
        private final Set<Node> doomedSet = Collections.newSetFromMap(new IdentityHashMap<>());
        int textLength;
        private int kept;
        private int elements;
        private int preDepth;
        private boolean cut;

        Truncation(int maxText) {
            this.maxText = maxText;
            // Any real markup has fewer elements than characters of text; this bounds the markup-only kind.
            this.maxElements = maxText;
        }

        @Override
        public FilterResult head(Node node, int depth) {
            if (depth == 0) {
                return FilterResult.CONTINUE;
            }
            if (node instanceof TextNode text) {
                text(text);
            } else if (node instanceof Element element) {
                element(element);
            }
            return FilterResult.CONTINUE;
        }

        @Override
        public FilterResult tail(Node node, int depth) {
            if (node instanceof Element element && element.normalName().equals("pre")) {
                preDepth--;
            }
            return FilterResult.CONTINUE;
        }

        private void text(TextNode node) {
            String whole = node.getWholeText();
            String text = preDepth > 0 || isNormal(whole) ? whole : StringUtil.normaliseWhitespace(whole);
            textLength += text.isBlank() ? 0 : text.length();
            if (cut) {
                doom(node);
            } else if (kept + text.length() <= maxText) {
                kept += text.length();
                if (!text.equals(whole)) {
                    node.text(text);
                }
            } else {
                node.text(cutAtWord(text, maxText - kept) + ELLIPSIS);
                cut = true;
            }
        }

        /** Whether the text has no whitespace to collapse (most text nodes): saves a copy of each. */
        private static boolean isNormal(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c < '!' && (c != ' ' || i + 1 < text.length() && text.charAt(i + 1) == ' ')) {
                    return false;
                }
            }
            return true;
        }

        private void element(Element element) {
            if (element.normalName().equals("pre")) {
                preDepth++;
            }
            if (cut) {
                doom(element);
            } else if (element.normalName().equals("img") && !element.hasAttr("src")) {
                doom(element); // its src was not http(s) and went: nothing left to show
            } else if (++elements > maxElements) {
                element.before(new TextNode(ELLIPSIS));
                cut = true;
                doom(element);
            }
        }

        private void doom(Node node) {
            doomedSet.add(node);
            if (!doomedSet.contains(node.parent())) {
                doomed.add(node);
            }
        }

        void finish(Element body, boolean inputCut) {
            doomed.forEach(Node::remove);
            if (inputCut && !cut) {
                body.appendChild(new TextNode(ELLIPSIS));
            }
        }

        /** The first {@code room} characters, back to the last space if one is near, never splitting a surrogate pair. */
        private static String cutAtWord(String text, int room) {
            int end = Math.max(0, room);
            if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--;
            }
            int space = text.lastIndexOf(' ', end);
            if (space > end * 2 / 3) {
                end = space;
            }
            return text.substring(0, end).stripTrailing();
        }
    }
}
