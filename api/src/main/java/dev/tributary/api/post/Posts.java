package dev.tributary.api.post;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.ratelimit.ActionRates;
import dev.tributary.api.subscription.OwnSource;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.Account;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.NotAMemberException;
import dev.tributary.pubsub.PublishResult;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * People's posts: to their own source (their followers and they themselves receive them) or to a
 * group they belong to. A post's guid names its author ({@code post:<user id>:<uuid>}), which is
 * how a group post is known to be the caller's when they delete it.
 */
@Service
public class Posts {

    static final int MAX_TEXT = 5000;
    static final int MAX_TAGS = 20;
    static final int MAX_TAG_LENGTH = 64;

    private final Publisher publisher;
    private final Groups groups;
    private final Items items;
    private final Sources sources;
    private final Accounts accounts;
    private final OwnSource ownSource;
    private final ActionRates rates;
    private final Clock clock = Clock.systemUTC();

    Posts(Publisher publisher, Groups groups, Items items, Sources sources, Accounts accounts, OwnSource ownSource,
            ActionRates rates) {
        this.rates = rates;
        this.publisher = publisher;
        this.groups = groups;
        this.items = items;
        this.sources = sources;
        this.accounts = accounts;
        this.ownSource = ownSource;
    }

    /** Publishes to the author's own source, subscribing them to it first so they see it at home. */
    public Stored<Item> publish(long authorId, PostRequest post) {
        NewItem item = compose(authorId, post);
        rates.take(authorId, ActionRates.Action.POST);
        Stored<Source> own = ownSource.followed(authorId);
        return created(publisher.publish(own.id(), List.of(item)));
    }

    /** @throws NotAMemberException if the author is not a member */
    public Stored<Item> publishToGroup(long groupId, long authorId, PostRequest post) {
        NewItem item = compose(authorId, post);
        if (!groups.isMember(groupId, authorId)) {
            // checked again when publishing; asked first so that a refused post does not use the allowance
            throw new NotAMemberException(groupId, authorId);
        }
        rates.take(authorId, ActionRates.Action.POST);
        return created(groups.post(groupId, authorId, item));
    }

    /**
     * Tombstones the caller's post. Items are public, so another's post (or a feed's item) is a
     * 403 rather than a pretended 404; an item that does not exist or is deleted is a 404.
     */
    public void delete(long userId, long itemId) {
        Stored<Item> item = items.find(itemId).orElseThrow(() -> ApiProblem.notFound("post"));
        if (!authoredBy(userId, item.body())) {
            throw ApiProblem.forbidden("Only the author of a post may delete it.");
        }
        if (!publisher.tombstone(itemId)) {
            throw ApiProblem.notFound("post");
        }
    }

    private boolean authoredBy(long userId, Item item) {
        if (!item.guid().startsWith(guidPrefix(userId))) {
            return false;
        }
        // Feeds choose their own guids: only people's and groups' sources hold posts.
        return sources.find(item.sourceId()).map(Stored::body)
                .map(source -> OwnSource.isOwn(userId, source) || source.kind() == SourceKind.GROUP).orElse(false);
    }

    private NewItem compose(long authorId, PostRequest post) {
        String text = PostText.xmlSafe(post.text()).strip();
        if (text.isEmpty()) {
            throw ApiProblem.invalid("text", "must not be blank");
        }
        String url = url(post.url());
        String author = accounts.find(authorId).map(StoredAccount::body).map(Account::username).orElse(null);
        return new NewItem(guidPrefix(authorId) + UUID.randomUUID(), null, PostText.toHtml(text), url, author,
                url == null ? MediaType.TEXT : MediaType.LINK, List.of(), tags(post.tags()),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
    }

    private Stored<Item> created(PublishResult result) {
        return items.find(result.created().getFirst()).orElseThrow(() -> ApiProblem.notFound("post"));
    }

    private static String guidPrefix(long userId) {
        return "post:" + userId + ":";
    }

    private static @Nullable String url(@Nullable String given) {
        if (given == null || given.isBlank()) {
            return null;
        }
        try {
            URI uri = new URI(given.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null && uri.getRawUserInfo() == null) {
                return uri.toASCIIString();
            }
        } catch (URISyntaxException invalid) {
            // reported below
        }
        throw ApiProblem.invalid("url", "must be an absolute http or https url");
    }

    /** Trimmed, first spelling kept of those equal ignoring case (timelines match tags ignoring case). */
    private static List<String> tags(@Nullable List<String> given) {
        if (given == null) {
            return List.of();
        }
        List<String> tags = new ArrayList<>(given.size());
        for (String tag : given) {
            String trimmed = PostText.xmlSafe(tag).strip();
            if (trimmed.isEmpty()) {
                throw ApiProblem.invalid("tags", "must not be blank");
            }
            if (tags.stream().noneMatch(trimmed::equalsIgnoreCase)) {
                tags.add(trimmed);
            }
        }
        return tags;
    }
}
