package dev.tributary.crawler.article;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Who wrote a page's article, as plain text: what the page declares first (schema.org JSON-LD or
 * microdata {@code author}, then {@code <meta name="author">}), then what Readability found in
 * the text (a "By …" line), then a {@code rel="author"} link's text. Read from the page before
 * Readability, which changes the tree. At most {@link #MAX_LENGTH} characters; a url is no byline.
 */
final class Byline {

    static final int MAX_LENGTH = 200;
    private static final int MAX_JSON = 256 * 1024;
    private static final int MAX_SCRIPTS = 20;
    private static final int MAX_NAMES = 5;
    private static final Pattern URL = Pattern.compile("(?i)^(?:https?:)?//\\S*$|^www\\.\\S*$");
    private static final Pattern BY = Pattern.compile("(?iu)^(?:by|von|par|por|di|door)\\s+");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Byline() {
    }

    /** The page's declared author, before Readability's own guess; null if it declares none. */
    static @Nullable String declared(Document page) {
        String fromJsonLd = jsonLd(page);
        if (fromJsonLd != null) {
            return fromJsonLd;
        }
        List<String> microdata = new ArrayList<>();
        for (Element author : page.select("[itemprop~=(?i)(^|\\s)author(\\s|$)]")) {
            Element name = author.selectFirst("[itemprop~=(?i)(^|\\s)name(\\s|$)]");
            String text = name != null ? (name.hasAttr("content") ? name.attr("content") : name.text())
                    : author.hasAttr("content") ? author.attr("content") : author.text();
            addName(microdata, text);
        }
        if (!microdata.isEmpty()) {
            return String.join(", ", microdata);
        }
        for (Element meta : page.select("meta[name~=(?i)^(author|dc\\.creator|dcterms\\.creator|byl|sailthru\\.author)$]")) {
            String text = clean(meta.attr("content"));
            if (text != null) {
                return text;
            }
        }
        return null;
    }

    /** The byline to keep: the declared one, else Readability's, else a rel="author" link's text read beforehand. */
    static @Nullable String choose(@Nullable String declared, @Nullable String readability, @Nullable String relAuthor) {
        for (String candidate : new String[] {declared, readability, relAuthor}) {
            String text = clean(candidate);
            if (text != null) {
                return text;
            }
        }
        return null;
    }

    /** The text of the page's first {@code rel="author"} link. */
    static @Nullable String relAuthor(Document page) {
        for (Element link : page.select("a[rel~=(?i)(^|\\s)author(\\s|$)]")) {
            String text = clean(link.text());
            if (text != null) {
                return text;
            }
        }
        return null;
    }

    private static @Nullable String jsonLd(Document page) {
        int read = 0;
        for (Element script : page.select("script[type~=(?i)^application/ld\\+json$]")) {
            if (++read > MAX_SCRIPTS) {
                break;
            }
            String data = script.data();
            if (data.length() > MAX_JSON) {
                continue;
            }
            JsonNode root;
            try {
                root = JSON.readTree(data);
            } catch (JacksonException unreadable) {
                continue;
            }
            List<String> names = new ArrayList<>();
            authors(root, names, 0);
            if (!names.isEmpty()) {
                return String.join(", ", names);
            }
        }
        return null;
    }

    /** The names of the authors of the first object (in an array or {@code @graph}) that names any. */
    private static void authors(JsonNode node, List<String> names, int depth) {
        if (node == null || depth > 3 || !names.isEmpty()) {
            return;
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                authors(element, names, depth + 1);
                if (!names.isEmpty()) {
                    return;
                }
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        JsonNode author = node.get("author");
        if (author != null) {
            for (JsonNode one : author.isArray() ? author : List.of(author)) {
                addName(names, one.isString() ? one.asString() : one.path("name").isString() ? one.path("name").asString() : null);
            }
        }
        if (names.isEmpty()) {
            authors(node.get("@graph"), names, depth + 1);
        }
    }

    private static void addName(List<String> names, @Nullable String name) {
        String text = clean(name);
        if (text != null && names.size() < MAX_NAMES && !names.contains(text)) {
            names.add(text);
        }
    }

    private static @Nullable String clean(@Nullable String text) {
        if (text == null) {
            return null;
        }
        String plain = BY.matcher(text.replaceAll("[\\p{Cc}\\s]+", " ").strip()).replaceFirst("");
        if (plain.isEmpty() || URL.matcher(plain).matches()) {
            return null;
        }
        String lower = plain.toLowerCase(Locale.ROOT);
        if (lower.equals("admin") || lower.equals("author")) {
            return null;
        }
        return plain.length() <= MAX_LENGTH ? plain : plain.substring(0, MAX_LENGTH - 1).stripTrailing() + ArticleExtractor.ELLIPSIS;
    }
}
