package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Text;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.Media;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.internal.StringUtil;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.safety.Cleaner;
import org.jspecify.annotations.Nullable;

/**
 * An entry's own full content as stored ({@link ItemContent}): the same allow-list as summaries
 * ({@link SafeHtml}, relative urls made absolute), lazy images made real first (their
 * {@code data-src} or {@code srcset} becomes {@code src}, else the cleaner would leave an empty
 * {@code <img>}), then bounded at {@link ItemContent#MAX_BYTES} UTF-8 bytes by dropping whole
 * nodes from the end, so what is kept is balanced markup, and marked truncated. Thread-safe.
 */
final class FullContent {

    /** Raw HTML read at most: twice the bound, cut after a tag end, so a hostile 50 MB entry costs no more. */
    static final int MAX_INPUT = 2 * ItemContent.MAX_BYTES;
    private static final List<String> LAZY_SOURCES = List.of("data-src", "data-lazy-src", "data-original", "data-url");
    private static final List<String> LAZY_SETS = List.of("srcset", "data-srcset", "data-lazy-srcset");

    /**
     * What was kept of an entry's content, and what its media type is weighed by.
     *
     * @param content the stored content, null if there is none
     * @param textLength how many characters of visible text the content has
     * @param images the content's images, in order, without tracking pixels (1×1 or smaller)
     */
    record Kept(@Nullable ItemContent content, int textLength, List<Media> images) {
        static final Kept NONE = new Kept(null, 0, List.of());
    }

    private final Cleaner cleaner = new Cleaner(SafeHtml.safelist());
    private final int maxBytes;

    FullContent() {
        this(ItemContent.MAX_BYTES);
    }

    /** @param maxBytes the bound, smaller in tests */
    FullContent(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The sanitised, bounded content; none when nothing visible is left. */
    Kept sanitise(@Nullable Text text, URI base) {
        if (text == null) {
            return Kept.NONE;
        }
        String value = text.value();
        boolean cut = value.length() > MAX_INPUT;
        if (cut) {
            int tagEnd = value.lastIndexOf('>', MAX_INPUT - 1);
            value = value.substring(0, tagEnd >= MAX_INPUT / 2 ? tagEnd + 1 : MAX_INPUT);
        }
        Document clean;
        if (text.html()) {
            Document dirty = Jsoup.parseBodyFragment(HtmlSummary.closeSelfClosed(value), base.toString());
            realiseLazyImages(dirty.body());
            clean = cleaner.clean(dirty);
        } else {
            clean = Document.createShell("");
            clean.body().appendElement("p").appendChild(new TextNode(value));
        }
        Element body = clean.body();
        // An image whose every source was a non-http(s) url lost its src: nothing left to show.
        body.select("img:not([src])").remove();
        if (body.text().isBlank() && body.getElementsByTag("img").isEmpty()) {
            return Kept.NONE;
        }
        clean.outputSettings().prettyPrint(false);
        String html = body.html();
        if (bytes(html) > maxBytes) {
            fit(body, maxBytes);
            cut = true;
            html = body.html();
        }
        return html.isBlank() ? Kept.NONE : new Kept(new ItemContent(html, cut), body.text().length(), images(body));
    }

    /** The images a reader sees: a 1×1 (or smaller) one is a tracking pixel, not a picture. */
    private static List<Media> images(Element body) {
        List<Media> images = new ArrayList<>();
        for (Element img : body.getElementsByTag("img")) {
            Integer width = dimension(img.attr("width"));
            Integer height = dimension(img.attr("height"));
            if ((width == null || width > 1) && (height == null || height > 1) && images.size() < MediaSelection.MAX_MEDIA) {
                images.add(new Media(img.attr("src"), null, width, height, null));
            }
        }
        return images;
    }

    private static @Nullable Integer dimension(String value) {
        try {
            int parsed = Integer.parseInt(value.strip());
            return parsed >= 0 && parsed <= 100_000 ? parsed : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Lazy-loading themes put the real image in {@code data-src} (or a srcset) and a placeholder
     * (a data: url, a 1×1 gif) in {@code src}: the real one is what a reader must see.
     */
    private static void realiseLazyImages(Element body) {
        for (Element img : body.getElementsByTag("img")) {
            String src = img.absUrl("src");
            boolean placeholder = !src.startsWith("http://") && !src.startsWith("https://");
            String lazy = firstHttp(img, LAZY_SOURCES);
            if (lazy != null && (placeholder || img.hasAttr("data-src") || img.hasAttr("data-lazy-src"))) {
                img.attr("src", lazy);
            } else if (placeholder) {
                String fromSet = largestOfSrcset(img);
                if (fromSet != null) {
                    img.attr("src", fromSet);
                }
            }
        }
    }

    private static @Nullable String firstHttp(Element img, List<String> attributes) {
        for (String attribute : attributes) {
            String url = img.absUrl(attribute);
            if (url.startsWith("http://") || url.startsWith("https://")) {
                return url;
            }
        }
        return null;
    }

    /** The widest candidate of the image's srcset ("a.jpg 480w, b.jpg 800w"), resolved; null if none is http(s). */
    private static @Nullable String largestOfSrcset(Element img) {
        String best = null;
        double bestSize = -1;
        for (String attribute : LAZY_SETS) {
            for (String candidate : img.attr(attribute).split(",")) {
                String[] parts = candidate.strip().split("\\s+");
                if (parts.length == 0 || parts[0].isEmpty()) {
                    continue;
                }
                double size = parts.length > 1 ? descriptor(parts[1]) : 1;
                String url = resolve(img, parts[0]);
                if (url != null && size > bestSize) {
                    best = url;
                    bestSize = size;
                }
            }
        }
        return best;
    }

    private static double descriptor(String descriptor) {
        try {
            return Double.parseDouble(descriptor.substring(0, descriptor.length() - 1));
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            return 0;
        }
    }

    private static @Nullable String resolve(Element img, String url) {
        String resolved = StringUtil.resolve(img.baseUri(), url);
        return resolved.startsWith("http://") || resolved.startsWith("https://") ? resolved : null;
    }

    /**
     * Keeps the first children of {@code parent} that fit in {@code room} bytes; the first that
     * does not is entered, if it is an element, and cut the same way; every node after goes.
     */
    private static void fit(Element parent, long room) {
        List<Node> children = List.copyOf(parent.childNodes());
        for (int i = 0; i < children.size(); i++) {
            Node child = children.get(i);
            long size = bytes(child.outerHtml());
            if (size <= room) {
                room -= size;
                continue;
            }
            if (child instanceof Element element && element.childNodeSize() > 0) {
                long tags = bytes(element.shallowClone().empty().outerHtml());
                if (tags < room) {
                    fit(element, room - tags);
                } else {
                    child.remove();
                }
            } else if (child instanceof TextNode textNode) {
                cutText(textNode, room);
            } else {
                child.remove();
            }
            children.subList(i + 1, children.size()).forEach(Node::remove);
            return;
        }
    }

    /** The text cut at a space so that its escaped form fits in {@code room} bytes (long plain-text content). */
    private static void cutText(TextNode node, long room) {
        String text = node.getWholeText();
        int end = (int) Math.min(text.length(), room);
        while (end > 0 && bytes(new TextNode(text.substring(0, end)).outerHtml()) > room) {
            end = end * 9 / 10;
        }
        if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        int space = text.lastIndexOf(' ', end);
        node.text(text.substring(0, space > end * 2 / 3 ? space : end).stripTrailing());
    }

    private static long bytes(String html) {
        long bytes = html.length();
        for (int i = 0; i < html.length(); i++) {
            char c = html.charAt(i);
            if (c >= 0x80) {
                // Two bytes up to U+07FF, three for the rest of the BMP; a surrogate pair is four, two per half.
                bytes += c < 0x800 ? 1 : Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return bytes;
    }
}
