package dev.tributary.crawler.normalize;

import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Element;
import org.jsoup.safety.Safelist;

/**
 * The allow-lists HTML passes before it is stored, whatever brought it (a feed's summary or
 * content, an entry's full article): formatting, links, images, lists, quotes, code and headings;
 * no scripts, styles, frames, forms, event handlers or non-http(s) urls; links get
 * rel="nofollow noopener". Full content and articles ({@link #withEmbeds()}) also keep video
 * players ({@link Embeds}) and https video and audio; summaries, excerpts in a list, do not.
 */
public final class SafeHtml {

    /**
     * What a kept player's iframe may do: run its own scripts in its own origin (a player needs
     * them), go full screen, open a link to the player's site; not navigate the reader's page, open
     * forms or downloads. Safe to combine scripts with same-origin only because the frame's origin
     * is never ours: {@link Embeds#isPlayer} admits only the players' own hosts.
     */
    static final String SANDBOX = "allow-scripts allow-same-origin allow-presentation allow-popups";
    /** Permissions a player may use; camera, microphone, geolocation and the rest stay off. */
    static final String ALLOW = "encrypted-media; fullscreen; picture-in-picture";

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

    /**
     * {@link #safelist()} with video embeds: an iframe whose src is a player's embed page (checked
     * here, after the url is made absolute), sandboxed, lazy, with a fixed set of permissions;
     * {@code <video>}, {@code <audio>} and their {@code <source>}s from https urls only, with
     * controls and without preloading (nothing plays or downloads until the reader asks). Run
     * {@link Embeds#dropForeign} before the cleaner and {@link Embeds#dropEmpty} after it.
     */
    public static Safelist withEmbeds() {
        Safelist embeds = new Safelist(safelist()) {
            @Override
            public boolean isSafeAttribute(String tagName, Element el, Attribute attr) {
                boolean safe = super.isSafeAttribute(tagName, el, attr);
                if (safe && tagName.equals("iframe") && attr.getKey().equals("src")) {
                    return Embeds.isPlayer(attr.getValue());
                }
                return safe;
            }
        };
        return embeds
                .addTags("iframe", "video", "audio", "source")
                .addAttributes("iframe", "src", "width", "height", "title", "allowfullscreen")
                .addAttributes("video", "src", "poster", "width", "height")
                .addAttributes("audio", "src")
                .addAttributes("source", "src", "type")
                .addProtocols("iframe", "src", "https")
                .addProtocols("video", "src", "https")
                .addProtocols("video", "poster", "https")
                .addProtocols("audio", "src", "https")
                .addProtocols("source", "src", "https")
                .addEnforcedAttribute("iframe", "sandbox", SANDBOX)
                .addEnforcedAttribute("iframe", "allow", ALLOW)
                .addEnforcedAttribute("iframe", "referrerpolicy", "strict-origin-when-cross-origin")
                .addEnforcedAttribute("iframe", "loading", "lazy")
                .addEnforcedAttribute("video", "controls", "controls")
                .addEnforcedAttribute("video", "preload", "none")
                .addEnforcedAttribute("audio", "controls", "controls")
                .addEnforcedAttribute("audio", "preload", "none");
    }
}
