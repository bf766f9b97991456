package dev.tributary.api.subscription;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Accounts;
import dev.tributary.api.folder.FolderView;
import dev.tributary.api.web.Caller;
import dev.tributary.api.source.SourceView;
import dev.tributary.api.source.SourceViews;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.ExactlyOneOf;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.WireId;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.crawler.FullArticles;
import dev.tributary.pubsub.Account;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.FolderNotFoundException;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Names;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceReach;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.SubscribeResult;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Stored;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
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
import org.springframework.web.bind.annotation.PatchMapping;
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
    private final Folders folders;
    private final FullArticles articles;
    private final SourceReach reach;

    SubscriptionController(Subscriptions subscriptions, Sources sources, FeedResolver feeds, Accounts accounts,
            Groups groups, SourceViews sourceViews, Folders folders, FullArticles articles, SourceReach reach) {
        this.reach = reach;
        this.articles = articles;
        this.folders = folders;
        this.subscriptions = subscriptions;
        this.sources = sources;
        this.feeds = feeds;
        this.accounts = accounts;
        this.groups = groups;
        this.sourceViews = sourceViews;
    }

    /** What to follow: exactly one of {@code url}, {@code user} and {@code group_id}. */
    @ExactlyOneOf({"url", "user", "groupId"})
    record SubscribeRequest(
            @Nullable @Size(max = 2048) String url,
            @Nullable @Size(max = 100) String user,
            @Nullable @WireId String groupId,
            @Nullable @Size(min = 1, max = 10, message = "must name 1 to 10 media types, or be left out") List<String> media,
            @Schema(description = TITLE) @Nullable String title,
            @Schema(description = FOLDER_IDS) @Nullable @Size(max = Folders.MAX_FOLDERS)
            List<@NotNull @WireId String> folderIds) {
    }

    /** What {@code PATCH /api/v1/subscriptions/{id}} changes: only what is given. */
    record SubscriptionPatch(
            @Schema(description = TITLE) @Nullable String title,
            @Schema(description = FOLDER_IDS) @Nullable @Size(max = Folders.MAX_FOLDERS)
            List<@NotNull @WireId String> folderIds,
            @Schema(description = FULL_CONTENT) @Nullable Boolean fullContent) {
    }

    private static final String TITLE = "What the caller calls this subscription: 1 to 200 characters once trimmed, no control "
            + "characters; an empty string goes back to the source's own title; left out or null: unchanged.";
    private static final String FULL_CONTENT = "true: always fetch the full article of this feed's new items (once each, "
            + "kept for every reader); false: only when someone asks; left out or null: unchanged. A person's or a group's "
            + "subscription has no pages to fetch: their posts link where they like.";
    private static final String FOLDER_IDS = "The caller's folders to file the subscription in, replacing those it is in "
            + "([] takes it out of every folder); left out or null: unchanged. A folder that is not the caller's is a 422.";

    @Operation(summary = "Follow a feed, a person or a group",
            description = "201 with the new subscription, 200 with the existing one (its media filter, title and folders "
                    + "changed to what is given).")
    @PostMapping("/api/v1/subscriptions")
    ResponseEntity<SubscriptionView> subscribe(Caller caller, @Valid @RequestBody SubscribeRequest request) {
        Set<MediaType> media = MediaFilter.parse(request.media());
        Edit edit = edit(caller, request.title(), request.folderIds());
        Stored<Source> source = target(caller, request);
        SubscribeResult result;
        try {
            // A new subscription is filed in its folders as it is made, so their rules act on its first items.
            result = subscriptions.subscribe(caller.userId(), source.id(), media, edit.folderIds());
        } catch (FolderNotFoundException e) {
            // deleted since it was checked
            throw noSuchFolder(Ids.format(e.folderId()));
        }
        Subscription subscription = apply(caller, result.subscription(),
                result.created() ? new Edit(edit.retitle(), edit.title(), null) : edit);
        return ResponseEntity.status(result.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(view(subscription, sourceViews.of(source), folders.foldersOf(caller.userId(), source.id()),
                        articles.readInFull(caller.userId()).contains(source.id())));
    }

    @Operation(summary = "Rename a subscription or file it in folders",
            description = "Changes only what is given: title (an empty string: the source's own title again) and folder_ids "
                    + "(replacing the folders it is filed in).")
    @PatchMapping("/api/v1/subscriptions/{id}")
    SubscriptionView change(Caller caller, @PathVariable String id, @Valid @RequestBody SubscriptionPatch patch) {
        Subscription subscription = subscriptions.byId(caller.userId(), Ids.path(id, "subscription"))
                .filter(s -> !own(caller, s))
                .orElseThrow(() -> ApiProblem.notFound("subscription"));
        Subscription changed = apply(caller, subscription, edit(caller, patch.title(), patch.folderIds()));
        Stored<Source> source = sources.get(subscription.sourceId());
        if (patch.fullContent() != null) {
            articles.readInFull(caller.userId(), source.id(), patch.fullContent());
        }
        return view(changed, sourceViews.of(source), folders.foldersOf(caller.userId(), subscription.sourceId()),
                articles.readInFull(caller.userId()).contains(source.id()));
    }

    /** A title and folders checked before anything changes, so a refused request changes nothing. */
    private record Edit(boolean retitle, @Nullable String title, @Nullable List<Long> folderIds) {
    }

    private Edit edit(Caller caller, @Nullable String title, @Nullable List<String> folderIds) {
        String cleaned = null;
        if (title != null && !title.isBlank()) {
            cleaned = Names.clean("title", title, Subscriptions.MAX_TITLE_LENGTH);
        }
        List<Long> ids = null;
        if (folderIds != null) {
            ids = new ArrayList<>(folderIds.size());
            for (String folderId : folderIds) {
                long parsed = Ids.required("folder_ids", folderId);
                if (folders.find(caller.userId(), parsed).isEmpty()) {
                    throw noSuchFolder(folderId);
                }
                ids.add(parsed);
            }
        }
        return new Edit(title != null, cleaned, ids);
    }

    private Subscription apply(Caller caller, Subscription subscription, Edit edit) {
        Subscription result = subscription;
        if (edit.folderIds() != null) {
            try {
                folders.file(caller.userId(), subscription.sourceId(), edit.folderIds());
            } catch (FolderNotFoundException e) {
                // deleted since it was checked
                throw noSuchFolder(Ids.format(e.folderId()));
            }
        }
        if (edit.retitle()) {
            result = subscriptions.retitle(caller.userId(), subscription.sourceId(), edit.title())
                    .orElseThrow(() -> ApiProblem.notFound("subscription"));
        }
        return result;
    }

    private static ApiProblem noSuchFolder(String id) {
        ApiProblem problem = ApiProblem.unprocessable("no-such-folder", "no_such_folder", "You have no folder " + id + ".");
        problem.getBody().setProperty("errors", List.of(Map.of("field", "folder_ids", "message", "names no folder of yours: " + id)));
        return problem;
    }

    private boolean own(Caller caller, Subscription subscription) {
        return sources.find(subscription.sourceId()).map(s -> OwnSource.isOwn(caller.userId(), s.body())).orElse(false);
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
        Map<Long, List<Folder>> filed = folders.foldersBySource(caller.userId());
        Set<Long> full = articles.readInFull(caller.userId());
        List<SubscriptionView> list = new ArrayList<>(shown.size());
        for (Subscription subscription : all) {
            SourceView view = views.get(Ids.format(subscription.sourceId()));
            if (view != null) {
                list.add(view(subscription, view, filed.getOrDefault(subscription.sourceId(), List.of()),
                        full.contains(subscription.sourceId())));
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
        // The full-article wish goes with it: the crawler hears SourceUnfollowed, whatever the path.
    }

    /** One of them is given: {@link ExactlyOneOf} saw to it. */
    private Stored<Source> target(Caller caller, SubscribeRequest request) {
        if (request.url() != null) {
            return feeds.resolve(request.url());
        }
        if (request.user() != null) {
            return person(caller, request.user());
        }
        return group(caller, Ids.required("group_id", request.groupId()));
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

    /** A closed group the caller is not a member of is answered as one that does not exist ({@link SourceReach}). */
    private Stored<Source> group(Caller caller, long groupId) {
        Group group = groups.find(groupId).filter(g -> reach.mayRead(caller.userId(), g.id(), g.body()))
                .map(Stored::body).orElseThrow(() -> ApiProblem.unprocessable(
                "no-such-group", "no_such_group", "There is no group " + groupId + "."));
        return sources.get(group.sourceId());
    }

    private static SubscriptionView view(Subscription subscription, SourceView source, List<Folder> filed, boolean full) {
        return new SubscriptionView(Ids.format(subscription.id()), source, MediaFilter.names(subscription.media()),
                subscription.createdAt(), subscription.title(), filed.stream().map(FolderView::of).toList(), full);
    }
}
