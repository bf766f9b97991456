package dev.tributary.crawler.normalize;

import org.jsoup.safety.Safelist;

/**
 * The one allow-list HTML passes before it is stored, whatever brought it (a feed's summary, an
 * entry's full article): formatting, links, images, lists, quotes, code and headings; no scripts,
 * styles, frames, forms, event handlers or non-http(s) urls; links get rel="nofollow noopener".
 */
public final class SafeHtml {

    private SafeHtml() {
    }

    /** A new allow-list each call: jsoup's {@link Safelist} is mutable, so none is shared beyond its cleaner. */
    public static Safelist safelist() {
        return new Safelist()
                .addTags("a", "abbr", "b", "blockquote", "br", "cite", "code", "dd", "del", "dl", "dt", "em",
                        "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd",
                        "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "strike", "strong", "sub", "sup",
                        "u", "ul", "var")
                .addAttributes("a", "href", "title")
                .addAttributes("img", "src", "alt", "title", "width", "height")
                .addAttributes("abbr", "title")
                .addAttributes("blockquote", "cite")
                .addAttributes("q", "cite")
                .addAttributes("ol", "start")
                .addProtocols("a", "href", "http", "https")
                .addProtocols("img", "src", "http", "https")
                .addProtocols("blockquote", "cite", "http", "https")
                .addProtocols("q", "cite", "http", "https")
                .addEnforcedAttribute("a", "rel", "nofollow noopener")
                .preserveRelativeLinks(false);
    }
}
