package dev.tributary.crawler.normalize;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * Video embeds a stored article or content may keep: an {@code <iframe>} only when its https
 * url is a known video player's embed page (the players Readability keeps: YouTube and its
 * no-cookie domain, Vimeo, Dailymotion, the latter's newer player too; each by exact host and
 * path), and {@code <video>}/{@code <audio>} with https sources. Why only these: a kept iframe runs its page's scripts in the reader's
 * browser, sandboxed to its own origin, so only players whose pages do nothing but play a video
 * are let in. Not PeerTube: its {@code /videos/embed/} path is served by any host that chooses to,
 * so no path can tell a PeerTube instance from a page made to look like one.
 */
public final class Embeds {

    /** The players: host (exact, lower case) to the embed paths it serves. */
    private static final Map<String, Pattern> PLAYERS = Map.of(
            "www.youtube.com", Pattern.compile("/embed/[A-Za-z0-9_-]{1,64}"),
            "youtube.com", Pattern.compile("/embed/[A-Za-z0-9_-]{1,64}"),
            "www.youtube-nocookie.com", Pattern.compile("/embed/[A-Za-z0-9_-]{1,64}"),
            "youtube-nocookie.com", Pattern.compile("/embed/[A-Za-z0-9_-]{1,64}"),
            "player.vimeo.com", Pattern.compile("/video/[0-9]{1,20}"),
            "www.dailymotion.com", Pattern.compile("/embed/video/[A-Za-z0-9]{1,32}"),
            "geo.dailymotion.com", Pattern.compile("/player(?:/[A-Za-z0-9]{1,32})?\\.html"));
    private static final int MAX_URL = 2048;
    private static final List<String> MEDIA = List.of("video", "audio");

    private Embeds() {
    }

    /** The players' hosts, for a page's {@code frame-src}: the only frames a page shows. */
    public static java.util.SortedSet<String> hosts() {
        return java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(PLAYERS.keySet()));
    }

    /** Whether the url is a player's embed page: https, no user or port, an exact host and path on the list. */
    public static boolean isPlayer(@Nullable String url) {
        if (url == null || url.length() > MAX_URL) {
            return false;
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return false;
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getRawUserInfo() != null || uri.getHost() == null
                || (uri.getPort() != -1 && uri.getPort() != 443) || uri.getRawPath() == null) {
            return false;
        }
        Pattern paths = PLAYERS.get(uri.getHost().toLowerCase(Locale.ROOT));
        return paths != null && paths.matcher(uri.getRawPath()).matches();
    }

    /**
     * Before the allow-list: iframes that are not players go with what they hold (the cleaner would
     * otherwise keep their fallback text), and so do objects and embeds (plug-ins).
     */
    public static void dropForeign(Element root) {
        for (Element frame : root.select("iframe, frame, frameset, object, embed")) {
            if (!frame.nameIs("iframe") || !isPlayer(frame.absUrl("src"))) {
                frame.remove();
            }
        }
    }

    /**
     * After the allow-list: an iframe it stripped of its src, a {@code <video>} or {@code <audio>}
     * left with no https source, a {@code <source>} outside one (a {@code <picture>}'s) go; a
     * player's iframe loses whatever text it held.
     */
    public static void dropEmpty(Element clean) {
        for (Element frame : clean.getElementsByTag("iframe")) {
            if (!isPlayer(frame.attr("src"))) {
                frame.remove();
            } else {
                frame.empty();
            }
        }
        for (Element source : clean.getElementsByTag("source")) {
            Element parent = source.parent();
            if (parent == null || !MEDIA.contains(parent.normalName()) || !source.hasAttr("src")) {
                source.remove();
            }
        }
        for (Element media : clean.select("video, audio")) {
            if (!media.hasAttr("src") && media.getElementsByTag("source").isEmpty()) {
                media.remove();
            }
        }
    }
}
