package dev.tributary.api.export;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.web.Ids;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * The exports as WebSub topics: which urls are topics of this deployment, and a topic's current
 * content, written exactly as {@code GET} on the topic url writes it (so its ETag is the export's).
 */
@Service
public class FeedTopics {

    /** Where the hub is served, under the deployment's root. */
    public static final String HUB_PATH = "/websub/hub";

    private static final Pattern USER = Pattern.compile("/feeds/users/([a-z0-9_]{1,100})\\.(atom|rss)");
    private static final Pattern HOME = Pattern.compile("/feeds/home\\.(atom|rss)");
    private static final Pattern GROUP = Pattern.compile("/feeds/groups/([0-9]{1,19})\\.(atom|rss)");
    private static final Pattern TOKEN = Pattern.compile("token=([A-Za-z0-9_-]{1,100})");

    private final FeedExports exports;
    private final FeedWriter writer;
    private final Accounts accounts;

    FeedTopics(FeedExports exports, FeedWriter writer, Accounts accounts) {
        this.exports = exports;
        this.writer = writer;
        this.accounts = accounts;
    }

    /**
     * The topic {@code url} names, if it is an export of this deployment: under one of
     * {@code bases} (roots such as {@code https://tributary.example}, no trailing slash), a
     * person's public feed, a home feed with a live token or an open group's feed; empty for
     * anything else (a closed group's feed among them).
     */
    public Optional<FeedTopic> resolve(String url, Collection<String> bases) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (uri.getRawFragment() != null || uri.getRawUserInfo() != null || uri.getRawPath() == null) {
            return Optional.empty();
        }
        String base = bases.stream().filter(b -> under(url, b)).findFirst().orElse(null);
        if (base == null) {
            return Optional.empty();
        }
        String path = url.substring(base.length());
        int query = path.indexOf('?');
        String route = query < 0 ? path : path.substring(0, query);
        String params = query < 0 ? null : path.substring(query + 1);
        Matcher user = USER.matcher(route);
        if (user.matches() && params == null) {
            return accounts.findByUsername(user.group(1))
                    .map(account -> new FeedTopic(FeedTopic.Kind.USER, account.id(), user.group(2), base + route));
        }
        Matcher group = GROUP.matcher(route);
        Long groupId = group.matches() && params == null ? Ids.lenient(group.group(1)) : null;
        if (groupId != null) {
            return exports.ofGroup(groupId)
                    .map(export -> new FeedTopic(FeedTopic.Kind.GROUP, groupId, group.group(2), base + route));
        }
        Matcher home = HOME.matcher(route);
        Matcher token = params == null ? null : TOKEN.matcher(params);
        if (home.matches() && token != null && token.matches()) {
            return accounts.findByFeedToken(token.group(1)).map(account -> new FeedTopic(FeedTopic.Kind.HOME, account.id(),
                    home.group(1), base + route + "?token=" + token.group(1)));
        }
        return Optional.empty();
    }

    /**
     * The topic's content now; empty when it is no longer served (the person is gone, a home
     * feed's token was replaced, a group was closed): its subscriptions end. Read afresh for every
     * delivery, so a group closed since the change was noticed sends nothing.
     */
    public Optional<TopicContent> content(FeedTopic topic) {
        FeedFormat format = format(topic.format());
        String base = topic.url().substring(0, topic.url().indexOf("/feeds/"));
        return switch (topic.kind()) {
            case USER -> accounts.find(topic.ownerId())
                    .flatMap(account -> exports.ofUser(account.body().username()))
                    .map(export -> written(userDocument(export, base, topic.url()), format));
            case HOME -> {
                String token = topic.url().substring(topic.url().indexOf("?token=") + "?token=".length());
                yield exports.home(token).filter(export -> export.account().id() == topic.ownerId())
                        .map(export -> written(homeDocument(export, base, topic.url()), format));
            }
            case GROUP -> exports.ofGroup(topic.ownerId()).map(export -> written(groupDocument(export, base, topic.url()), format));
        };
    }

    /** A person's public feed, as {@code self} names it under {@code base}. */
    FeedDocument userDocument(FeedExports.Export export, String base, String self) {
        String name = export.account().body().username();
        return new FeedDocument("urn:tributary:feed:user:" + Ids.format(export.account().id()), name + " on Tributary",
                base + "/", base + "/", self, hub(base), "What " + name + " posts and follows on their profile.",
                export.account().body().createdAt(), export.items());
    }

    /** A person's home timeline, as {@code self} (with its token) names it under {@code base}. */
    FeedDocument homeDocument(FeedExports.Export export, String base, String self) {
        StoredAccount account = export.account();
        return new FeedDocument("urn:tributary:feed:home:" + Ids.format(account.id()),
                account.body().username() + "'s home on Tributary", base + "/", base + "/", self, hub(base),
                "The newest entries of " + account.body().username() + "'s home timeline.", account.body().createdAt(),
                export.items());
    }

    /** An open group's feed, as {@code self} names it under {@code base}; its link is the group's page. */
    FeedDocument groupDocument(FeedExports.GroupExport export, String base, String self) {
        String name = export.group().body().name();
        String id = Ids.format(export.group().id());
        return new FeedDocument("urn:tributary:feed:group:" + id, name + " on Tributary", base + "/groups/" + id, base + "/",
                self, hub(base), "What the members of " + name + " post.", export.group().body().createdAt(), export.items());
    }

    static String hub(String base) {
        return base + HUB_PATH;
    }

    private TopicContent written(FeedDocument document, FeedFormat format) {
        RenderedFeed feed = writer.write(document, format);
        return new TopicContent(feed.body(), feed.contentType().toString(), feed.etag());
    }

    private static FeedFormat format(String extension) {
        return switch (extension) {
            case "atom" -> FeedFormat.ATOM;
            case "rss" -> FeedFormat.RSS;
            default -> throw new IllegalArgumentException("not an export format: " + extension);
        };
    }

    /** Whether {@code url} is under {@code base} (scheme and host compared without case), at a path boundary. */
    private static boolean under(String url, @Nullable String base) {
        return base != null && url.length() > base.length()
                && url.substring(0, base.length()).toLowerCase(Locale.ROOT).equals(base.toLowerCase(Locale.ROOT))
                && url.charAt(base.length()) == '/';
    }
}
