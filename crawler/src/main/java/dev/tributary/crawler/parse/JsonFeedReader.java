package dev.tributary.crawler.parse;

import dev.tributary.crawler.parse.FeedFormatException.Reason;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1), read as a tree with Jackson. */
final class JsonFeedReader {

    private static final String VERSION_PREFIX = "://jsonfeed.org/version/1";

    // Thread-safe once built; its default stream limits (nesting depth, string length) bound hostile input.
    private final JsonMapper mapper = JsonMapper.builder().build();

    ParsedFeed read(byte[] body, URI feedUrl) throws FeedFormatException {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (JacksonException e) {
            throw new FeedFormatException(Reason.MALFORMED, "Not valid JSON: " + e.getOriginalMessage(), e);
        }
        String version = string(root, "version");
        if (root == null || !root.isObject() || version == null || !version.contains(VERSION_PREFIX)) {
            throw new FeedFormatException(Reason.NOT_A_FEED,
                    "A JSON document, but not a JSON Feed (no \"version\": \"https://jsonfeed.org/version/1.1\").");
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode item : root.path("items")) {
            if (item.isObject()) {
                entries.add(entry(item, feedUrl));
            }
        }
        return new ParsedFeed(ParsedFeed.Format.JSON_FEED, feedUrl, Text.of(string(root, "title"), false),
                string(root, "home_page_url"), hub(root), string(root, "feed_url"), null, author(root), entries);
    }

    private static Entry entry(JsonNode item, URI base) {
        String html = string(item, "content_html");
        Text content = html != null ? Text.of(html, true) : Text.of(string(item, "content_text"), false);
        String url = string(item, "url");
        return new Entry(string(item, "id"), url != null ? url : string(item, "external_url"),
                Text.of(string(item, "title"), false), Text.of(string(item, "summary"), false), content, author(item),
                Dates.rfc3339(string(item, "date_published")), Dates.rfc3339(string(item, "date_modified")),
                strings(item.path("tags")), media(item), base);
    }

    /** Attachments, then {@code image} (the entry's main picture, a preview of it like a thumbnail). */
    private static List<Media> media(JsonNode item) {
        List<Media> media = new ArrayList<>();
        for (JsonNode attachment : item.path("attachments")) {
            String url = string(attachment, "url");
            JsonNode size = attachment.path("size_in_bytes");
            if (url != null) {
                media.add(new Media(url, string(attachment, "mime_type"), null, null, null,
                        size.isNumber() && size.canConvertToLong() && size.longValue() > 0 ? size.longValue() : null, false));
            }
        }
        String image = string(item, "image");
        if (image != null) {
            media.add(new Media(image, null, "image", null, null, null, true));
        }
        return media;
    }

    /** JSON Feed 1.1 {@code authors}, else 1.0 {@code author}. */
    private static @Nullable String author(JsonNode node) {
        for (JsonNode author : node.path("authors")) {
            String name = string(author, "name");
            if (name != null) {
                return name;
            }
        }
        return string(node.path("author"), "name");
    }

    private static @Nullable String hub(JsonNode root) {
        for (JsonNode hub : root.path("hubs")) {
            String type = string(hub, "type");
            if (type != null && type.equalsIgnoreCase("websub")) {
                return string(hub, "url");
            }
        }
        return null;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        for (JsonNode value : array) {
            if (value.isString() || value.isNumber()) {
                values.add(value.asString());
            }
        }
        return values;
    }

    /** A string (or number, as ids sometimes are) property; null if absent, another type or blank. */
    private static @Nullable String string(@Nullable JsonNode node, String property) {
        JsonNode value = node == null ? null : node.get(property);
        if (value == null || !(value.isString() || value.isNumber())) {
            return null;
        }
        String text = value.asString();
        return text.isBlank() ? null : text;
    }
}
