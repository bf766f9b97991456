package dev.tributary.crawler.parse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/** Feed autodiscovery: the {@code <link rel="alternate">} feeds an HTML page names. Pure. */
public final class HtmlFeedLinks {

    // Feed links sit in <head>; a page past this size is read only this far.
    private static final int MAX_BYTES = 1 << 20;
    private static final int SNIFF_BYTES = 1024;
    private static final Set<String> PREFERRED_TYPES = Set.of("application/atom+xml", "application/rss+xml");
    private static final Set<String> OTHER_TYPES = Set.of("application/rdf+xml", "application/feed+json",
            "application/json", "application/xml", "text/xml");

    public HtmlFeedLinks() {
    }

    /** The feeds {@code body} (an HTML page fetched from {@code pageUrl}) names, best first; empty if none or not HTML. */
    public List<URI> find(byte[] body, @Nullable String contentType, URI pageUrl) {
        if (!isHtml(body, contentType)) {
            return List.of();
        }
        Document page;
        try {
            page = Jsoup.parse(new ByteArrayInputStream(body, 0, Math.min(body.length, MAX_BYTES)),
                    charset(contentType), pageUrl.toString());
        } catch (IOException | RuntimeException unreadable) {
            return List.of();
        }
        Set<URI> preferred = new LinkedHashSet<>();
        Set<URI> others = new LinkedHashSet<>();
        for (Element link : page.getElementsByTag("link")) {
            String type = type(link.attr("type"));
            boolean isPreferred = PREFERRED_TYPES.contains(type);
            if (!hasToken(link.attr("rel"), "alternate") || !isPreferred && !OTHER_TYPES.contains(type)) {
                continue;
            }
            // absUrl resolves against <base href> (jsoup applies the first one to the whole page) and the page url;
            // it is empty when the base is unusable (javascript:), and then browsers use the page url alone.
            String absolute = link.absUrl("href");
            URI url = LinkResolver.resolveHttp(pageUrl, absolute.isEmpty() ? link.attr("href") : absolute);
            if (url != null) {
                (isPreferred ? preferred : others).add(url);
            }
        }
        others.removeAll(preferred);
        List<URI> found = new ArrayList<>(preferred);
        found.addAll(others);
        return List.copyOf(found);
    }

    /** HTML by its content type; without a telling one, by a look at its start. */
    private static boolean isHtml(byte[] body, @Nullable String contentType) {
        String mime = Syntax.mime(contentType);
        if (mime != null && !mime.equals("application/octet-stream") && !mime.equals("text/plain")) {
            return mime.equals("text/html") || mime.equals("application/xhtml+xml");
        }
        String start = new String(body, 0, Math.min(body.length, SNIFF_BYTES), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        return start.contains("<html") || start.contains("<!doctype html") || start.contains("<head");
    }

    /** The header's charset if Java knows it; else null, for jsoup to read the BOM or {@code <meta charset>}. */
    private static @Nullable String charset(@Nullable String contentType) {
        if (contentType == null) {
            return null;
        }
        int at = contentType.toLowerCase(Locale.ROOT).indexOf("charset=");
        if (at < 0) {
            return null;
        }
        String name = contentType.substring(at + 8).split("[;\\s]")[0].replace("\"", "").replace("'", "");
        try {
            return Charset.isSupported(name) ? name : null;
        } catch (IllegalArgumentException illegal) {
            return null;
        }
    }

    private static String type(String type) {
        int semicolon = type.indexOf(';');
        return (semicolon < 0 ? type : type.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    private static boolean hasToken(String rel, String token) {
        for (String part : rel.split("\\s+")) {
            if (part.equalsIgnoreCase(token)) {
                return true;
            }
        }
        return false;
    }
}
