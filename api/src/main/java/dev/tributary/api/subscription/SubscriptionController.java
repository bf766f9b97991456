package dev.tributary.api.subscription;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Account;
import dev.tributary.api.account.Accounts;
import dev.tributary.api.web.Caller;
import dev.tributary.api.source.SourceView;
import dev.tributary.api.source.SourceViews;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.SubscribeResult;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Stored;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's subscriptions: follow a feed (by its url or a page naming it), a person or a
 * group; list them; stop following. Naming a person or group that does not exist is a 422
 * (the request is well-formed but names nothing), as an unusable feed url is.
 */
@RestController
class SubscriptionController {

    private final Subscriptions subscriptions;
    private final Sources sources;
    private final FeedResolver feeds;
    private final Accounts accounts;
    private final Groups groups;
    private final SourceViews sourceViews;

    SubscriptionController(Subscriptions subscriptions, Sources sources, FeedResolver feeds, Accounts accounts,
            Groups groups, SourceViews sourceViews) {
        this.subscriptions = subscriptions;
        this.sources = sources;
        this.feeds = feeds;
        this.accounts = accounts;
        this.groups = groups;
        this.sourceViews = sourceViews;
    }

    /** What to follow: exactly one of {@code url}, {@code user} and {@code group_id}. */
    record SubscribeRequest(
            @Nullable @Size(max = 2048) String url,
            @Nullable @Size(max = 100) String user,
            @Nullable @Size(max = 20) String groupId,
            @Nullable @Size(min = 1, max = 10, message = "must name 1 to 10 media types, or be left out") List<String> media) {
    }

    @PostMapping("/api/v1/subscriptions")
    ResponseEntity<SubscriptionView> subscribe(Caller caller, @Valid @RequestBody SubscribeRequest request) {
        Set<MediaType> media = MediaFilter.parse(request.media());
        Stored<Source> source = target(caller, request);
        SubscribeResult result = subscriptions.subscribe(caller.userId(), source.id(), media);
        return ResponseEntity.status(result.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(view(result.subscription(), sourceViews.of(source)));
    }

    @GetMapping("/api/v1/subscriptions")
    List<SubscriptionView> list(Caller caller) {
        List<Subscription> all = subscriptions.of(caller.userId());
        Map<Long, Stored<Source>> byId = sources.getAll(all.stream().map(Subscription::sourceId).toList()).stream()
                .filter(source -> !OwnSource.isOwn(caller.userId(), source.body()))
                .collect(Collectors.toMap(Stored::id, Function.identity(), (a, b) -> a));
        List<Stored<Source>> shown = all.stream().map(s -> byId.get(s.sourceId())).filter(Objects::nonNull).toList();
        Map<String, SourceView> views = sourceViews.of(shown).stream()
                .collect(Collectors.toMap(SourceView::id, Function.identity(), (a, b) -> a));
        List<SubscriptionView> list = new ArrayList<>(shown.size());
        for (Subscription subscription : all) {
            SourceView view = views.get(Ids.format(subscription.sourceId()));
            if (view != null) {
                list.add(view(subscription, view));
            }
        }
        return list;
    }

    /** Someone else's subscription id is a 404 like one that never existed: ids reveal nothing. */
    @DeleteMapping("/api/v1/subscriptions/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void unsubscribe(Caller caller, @PathVariable String id) {
        Subscription subscription = subscriptions.byId(caller.userId(), Ids.path(id, "subscription"))
                .orElseThrow(() -> ApiProblem.notFound("subscription"));
        boolean own = sources.find(subscription.sourceId()).map(s -> OwnSource.isOwn(caller.userId(), s.body())).orElse(false);
        if (own || !subscriptions.unsubscribe(caller.userId(), subscription.sourceId())) {
            throw ApiProblem.notFound("subscription");
        }
    }

    private Stored<Source> target(Caller caller, SubscribeRequest request) {
        List<String> given = new ArrayList<>(3);
        if (request.url() != null) {
            given.add("url");
        }
        if (request.user() != null) {
            given.add("user");
        }
        if (request.groupId() != null) {
            given.add("group_id");
        }
        if (given.size() != 1) {
            throw exactlyOne(given.isEmpty() ? List.of("url", "user", "group_id") : given);
        }
        if (request.url() != null) {
            return feeds.resolve(request.url());
        }
        if (request.user() != null) {
            return person(caller, request.user());
        }
        return group(Ids.required("group_id", request.groupId()));
    }

    private Stored<Source> person(Caller caller, String username) {
        StoredAccount account = accounts.findByUsername(username).orElseThrow(() -> ApiProblem.unprocessable(
                "no-such-user", "no_such_user", "Nobody is called '" + username + "'."));
        if (account.id() == caller.userId()) {
            throw ApiProblem.unprocessable("self-subscription", "self",
                    "You cannot follow yourself: your own posts already reach your home timeline.");
        }
        return sources.ofUser(account.id());
    }

    private Stored<Source> group(long groupId) {
        Group group = groups.find(groupId).map(Stored::body).orElseThrow(() -> ApiProblem.unprocessable(
                "no-such-group", "no_such_group", "There is no group " + groupId + "."));
        return sources.get(group.sourceId());
    }

    private static ApiProblem exactlyOne(List<String> fields) {
        ApiProblem problem = ApiProblem.badRequest("Give exactly one of url, user and group_id.");
        problem.getBody().setProperty("errors", fields.stream()
                .map(field -> Map.of("field", field, "message", "exactly one of url, user and group_id is needed"))
                .toList());
        return problem;
    }

    private static SubscriptionView view(Subscription subscription, SourceView source) {
        return new SubscriptionView(Ids.format(subscription.id()), source, MediaFilter.names(subscription.media()),
                subscription.createdAt());
    }
}
