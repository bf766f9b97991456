package dev.tributary.crawler.article;

import dev.tributary.crawler.normalize.Embeds;
import dev.tributary.crawler.normalize.LazyImages;
import dev.tributary.crawler.normalize.SafeHtml;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.dankito.readability4j.Readability4J;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.safety.Cleaner;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;
import org.jspecify.annotations.Nullable;

/**
 * An entry's page to its article: HTML only (by the response's type, or by its first bytes when
 * the server names none); the main content found by Readability4J (a port of Mozilla's
 * Readability.js, Firefox's Reader View), lazy images made real first ({@link LazyImages}) and the
 * byline read ({@link Byline}); then the content's allow-list ({@link SafeHtml#withEmbeds()}: video
 * players kept, other frames dropped) with every url made absolute against the page's final url; then cut to {@code maxBytes} of UTF-8
 * after the last whole block that fits. Pure: no I/O, no shared mutable state.
 */
public final class ArticleExtractor {

    /** An article ready to keep. */
    public record Extracted(String html, @Nullable String title, @Nullable String byline, boolean truncated) {
    }

    /** Why a page gave no article. */
    public enum Refusal { NOT_HTML, NO_ARTICLE }

    /** A page that gave no article, with a sentence for readers. */
    public static final class NoArticleException extends Exception {

        private final Refusal refusal;

        NoArticleException(Refusal refusal, String message) {
            super(message, null, false, false);
            this.refusal = refusal;
        }

        public Refusal refusal() {
            return refusal;
        }
    }

    static final String ELLIPSIS = "…";
    private static final Pattern CHARSET = Pattern.compile("charset\\s*=\\s*\"?([^\";\\s]+)", Pattern.CASE_INSENSITIVE);
    private static final int TITLE_LENGTH = 500;
    /**
     * Past these a page is refused before extraction: Readability's passes over the tree cost
     * about a second for 30,000 elements and grow faster than linearly with nesting (100,000
     * nested divs, 1.2 MB, ran for minutes); real articles stay far below both.
     */
    static final int MAX_ELEMENTS = 50_000;
    static final int MAX_DEPTH = 150;
    private static final String NOT_SHOWN = "head, title, script, style, noscript, template, frame, object, embed, svg,"
            + " math, canvas, form, button, select, textarea, input, option, datalist";

    private static final List<String> URL_ATTRIBUTES = List.of("href", "src", "cite", "poster");

    private final int maxBytes;

    public ArticleExtractor(int maxBytes) {
        if (maxBytes < 1024) {
            throw new IllegalArgumentException("maxBytes must be at least 1024, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * @param contentType the response's {@code Content-Type}, if any
     * @param base the page's url after redirects: relative urls resolve against it
     * @throws NoArticleException if the page is not HTML or holds nothing readable
     */
    public Extracted extract(byte[] body, @Nullable String contentType, URI base) throws NoArticleException {
        if (!isHtml(contentType, body)) {
            throw new NoArticleException(Refusal.NOT_HTML, "the page is not HTML (" + describe(contentType) + ")");
        }
        Element content;
        String title;
        String byline;
        try {
            Document page = Jsoup.parse(new ByteArrayInputStream(body), charset(contentType), base.toString());
            String tooComplex = tooComplex(page);
            if (tooComplex != null) {
                throw new NoArticleException(Refusal.NO_ARTICLE, "the page is too complex to read as an article (" + tooComplex + ")");
            }
            LazyImages.realise(page.body());
            absoluteUrls(page);
            String declared = Byline.declared(page);
            String relAuthor = Byline.relAuthor(page);
            var article = new Readability4J(base.toString(), page).parse();
            content = article.getArticleContent();
            title = article.getTitle();
            byline = Byline.choose(declared, article.getByline(), relAuthor);
        } catch (IOException | RuntimeException | StackOverflowError unreadable) {
            // A page nested deeper than the extractor's recursion reaches is as unreadable as a broken one.
            throw new NoArticleException(Refusal.NO_ARTICLE, "the page could not be read as an article");
        }
        if (content == null) {
            throw new NoArticleException(Refusal.NO_ARTICLE, "no article found on the page");
        }
        // The allow-list drops these elements but keeps their text: their text is not the article's.
        content.select(NOT_SHOWN).remove();
        Embeds.dropForeign(content);
        Document dirty = Document.createShell(base.toString());
        dirty.body().appendChild(content);
        Document clean = new Cleaner(SafeHtml.withEmbeds()).clean(dirty);
        clean.outputSettings().prettyPrint(false);
        Element cleanBody = clean.body();
        Embeds.dropEmpty(cleanBody);
        cleanBody.getElementsByTag("img").stream().filter(img -> !img.hasAttr("src")).forEach(Node::remove);
        if (cleanBody.text().isBlank() && cleanBody.select("img, iframe, video, audio").isEmpty()) {
            throw new NoArticleException(Refusal.NO_ARTICLE, "no article found on the page");
        }
        boolean truncated = cut(cleanBody, maxBytes);
        return new Extracted(cleanBody.html(), title(title), byline, truncated);
    }

    /**
     * Links and images made absolute against the page's base (its final url, or its own
     * {@code <base href>}) before extraction: Readability4J's own resolution drops a url's port.
     */
    private static void absoluteUrls(Document page) {
        for (Element link : page.select("a[href], img[src], blockquote[cite], q[cite], iframe[src], video[src], video[poster],"
                + " audio[src], source[src]")) {
            for (String attribute : URL_ATTRIBUTES) {
                if (!link.hasAttr(attribute)) {
                    continue;
                }
                String absolute = link.absUrl(attribute);
                if (absolute.isEmpty()) {
                    link.removeAttr(attribute);
                } else {
                    link.attr(attribute, absolute);
                }
            }
        }
    }

    /** Why the page's tree is beyond what extraction may cost, or null if it is within bounds; stops at the first excess. */
    static @Nullable String tooComplex(Document page) {
        String[] excess = new String[1];
        int[] elements = new int[1];
        NodeTraversor.filter(new NodeFilter() {
            @Override
            public FilterResult head(Node node, int depth) {
                if (!(node instanceof Element)) {
                    return FilterResult.CONTINUE;
                }
                if (depth > MAX_DEPTH) {
                    excess[0] = "nested more than " + MAX_DEPTH + " deep";
                    return FilterResult.STOP;
                }
                if (++elements[0] > MAX_ELEMENTS) {
                    excess[0] = "more than " + MAX_ELEMENTS + " elements";
                    return FilterResult.STOP;
                }
                return FilterResult.CONTINUE;
            }
        }, page);
        return excess[0];
    }

    /** HTML by its declared type; with none (or a generic one), by a tag among its first bytes. */
    static boolean isHtml(@Nullable String contentType, byte[] body) {
        String type = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (type.equals("text/html") || type.equals("application/xhtml+xml")) {
            return true;
        }
        if (!type.isEmpty() && !type.equals("application/octet-stream") && !type.equals("text/plain")) {
            return false;
        }
        String head = new String(body, 0, Math.min(body.length, 1024), StandardCharsets.ISO_8859_1).stripLeading()
                .toLowerCase(Locale.ROOT);
        return head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<head") || head.startsWith("<body");
    }

    /** The charset the response names, if Java knows it; else jsoup reads the page's own meta or a BOM, then UTF-8. */
    private static @Nullable String charset(@Nullable String contentType) {
        if (contentType == null) {
            return null;
        }
        Matcher m = CHARSET.matcher(contentType);
        if (!m.find()) {
            return null;
        }
        try {
            return Charset.forName(m.group(1)).name();
        } catch (IllegalCharsetNameException | UnsupportedCharsetException unknown) {
            return null;
        }
    }

    private static @Nullable String title(@Nullable String title) {
        if (title == null || title.isBlank()) {
            return null;
        }
        String plain = title.strip().replaceAll("\\s+", " ");
        return plain.length() <= TITLE_LENGTH ? plain : plain.substring(0, TITLE_LENGTH - 1) + ELLIPSIS;
    }

    private static String describe(@Nullable String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return "no type given";
        }
        String type = contentType.split(";", 2)[0].strip();
        return type.length() <= 100 && type.chars().allMatch(c -> c > 0x20 && c < 0x7f) ? type : "an unknown type";
    }

    /**
     * Keeps the body's children while their HTML fits {@code maxBytes} (UTF-8); a child that does
     * not fit is itself cut the same way if it has children, so a one-block article is cut inside
     * it; an ellipsis ends what was cut. Whether anything was removed.
     */
    static boolean cut(Element parent, int maxBytes) {
        if (utf8Length(parent.html()) <= maxBytes) {
            return false;
        }
        cutChildren(parent, maxBytes - utf8Length(ELLIPSIS));
        parent.appendChild(new TextNode(ELLIPSIS));
        return true;
    }

    private static int cutChildren(Element parent, int budget) {
        int used = 0;
        boolean cutting = false;
        for (Node child : parent.childNodes().toArray(Node[]::new)) {
            if (cutting) {
                child.remove();
                continue;
            }
            int size = utf8Length(child.outerHtml());
            if (used + size <= budget) {
                used += size;
                continue;
            }
            cutting = true;
            if (child instanceof Element element && element.childNodeSize() > 0) {
                int shell = utf8Length(element.shallowClone().empty().outerHtml());
                if (used + shell < budget) {
                    used += shell + cutChildren(element, budget - used - shell);
                    continue;
                }
            }
            child.remove();
        }
        return used;
    }

    private static int utf8Length(String html) {
        int bytes = 0;
        for (int i = 0; i < html.length(); i++) {
            char c = html.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
