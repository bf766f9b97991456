package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.ParsedFeed.Text;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.Media;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.safety.Cleaner;
import org.jspecify.annotations.Nullable;

/**
 * An entry's own full content as stored ({@link ItemContent}): the summaries' allow-list with video
 * embeds ({@link SafeHtml#withEmbeds()}, relative urls made absolute), lazy images made real first
 * ({@link LazyImages}: else the cleaner would leave a placeholder or an empty {@code <img>}), then bounded at {@link ItemContent#MAX_BYTES} UTF-8 bytes by dropping whole
 * nodes from the end, so what is kept is balanced markup, and marked truncated. Thread-safe.
 */
final class FullContent {

    /** Raw HTML read at most: twice the bound, cut after a tag end, so a hostile 50 MB entry costs no more. */
    static final int MAX_INPUT = 2 * ItemContent.MAX_BYTES;

    /**
     * What was kept of an entry's content, and what its media type is weighed by.
     *
     * @param content the stored content, null if there is none
     * @param textLength how many characters of visible text the content has
     * @param images the content's images, in order, without tracking pixels (1×1 or smaller)
     * @param videos what the content plays as video, in order: {@code <video>} sources and the
     *     players' pages its kept iframes show ({@code text/html}: a page to open, not a file to play)
     * @param audios the content's {@code <audio>} sources, in order
     */
    record Kept(@Nullable ItemContent content, int textLength, List<Media> images, List<Media> videos, List<Media> audios) {
        static final Kept NONE = new Kept(null, 0, List.of(), List.of(), List.of());
    }

    private final Cleaner cleaner = new Cleaner(SafeHtml.withEmbeds());
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
            LazyImages.realise(dirty.body());
            Embeds.dropForeign(dirty.body());
            clean = cleaner.clean(dirty);
            Embeds.dropEmpty(clean.body());
        } else {
            clean = Document.createShell("");
            clean.body().appendElement("p").appendChild(new TextNode(value));
        }
        Element body = clean.body();
        // An image whose every source was a non-http(s) url lost its src: nothing left to show.
        body.select("img:not([src])").remove();
        if (body.text().isBlank() && body.select("img, iframe, video, audio").isEmpty()) {
            return Kept.NONE;
        }
        clean.outputSettings().prettyPrint(false);
        String html = body.html();
        if (bytes(html) > maxBytes) {
            fit(body, maxBytes);
            cut = true;
            html = body.html();
        }
        return html.isBlank() ? Kept.NONE : new Kept(new ItemContent(html, cut), body.text().length(), images(body),
                playing(body, "iframe, video"), playing(body, "audio"));
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

    /**
     * What the {@code selected} elements play, as media: a player's page (text/html), else the
     * element's or its first {@code <source>}'s url with that source's declared type, else a wildcard
     * of the element's kind (video/*, audio/*).
     */
    private static List<Media> playing(Element body, String selected) {
        List<Media> playing = new ArrayList<>();
        for (Element element : body.select(selected)) {
            Element source = element.selectFirst("source[src]");
            String url = element.hasAttr("src") ? element.attr("src") : source == null ? "" : source.attr("src");
            String declared = source == null || element.hasAttr("src") ? "" : source.attr("type");
            String type = element.nameIs("iframe") ? "text/html" : declared.isBlank() ? element.normalName() + "/*" : declared;
            if (!url.isEmpty() && playing.size() < MediaSelection.MAX_MEDIA) {
                playing.add(new Media(url, type, dimension(element.attr("width")), dimension(element.attr("height")), null));
            }
        }
        return playing;
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
