package dev.tributary.api.profile;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Accounts;
import dev.tributary.api.item.ItemView;
import dev.tributary.api.web.Caller;
import dev.tributary.api.source.SourcePages;
import dev.tributary.api.source.SourceView;
import dev.tributary.api.source.SourceViews;
import dev.tributary.api.subscription.OwnSource;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.pubsub.Account;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * People's profiles: a person's feed (their posts and the items of the feeds attached to their
 * profile, as far back as they go) and the caller's attached feeds.
 */
@RestController
class ProfileController {

    private final Accounts accounts;
    private final Sources sources;
    private final FeedResolver feeds;
    private final OwnSource ownSource;
    private final SourceViews sourceViews;
    private final SourcePages pages;

    ProfileController(Accounts accounts, Sources sources, FeedResolver feeds, OwnSource ownSource, SourceViews sourceViews,
            SourcePages pages) {
        this.accounts = accounts;
        this.sources = sources;
        this.feeds = feeds;
        this.ownSource = ownSource;
        this.sourceViews = sourceViews;
        this.pages = pages;
    }

    /** A feed to attach to the caller's profile (a feed url or a page naming one). */
    record AttachRequest(@NotNull @Size(max = 2048) String url) {
    }

    @GetMapping("/api/v1/users/{username}/feed")
    ResponseEntity<List<ItemView>> feed(Caller caller, @PathVariable String username,
            @RequestParam(required = false) String limit, @RequestParam(name = "max_id", required = false) String maxId,
            @RequestParam(name = "since_id", required = false) String sinceId,
            @RequestParam(name = "min_id", required = false) String minId) {
        Paging paging = Paging.of(limit, maxId, sinceId, minId);
        StoredAccount person = accounts.findByUsername(username).orElseThrow(() -> ApiProblem.notFound("person"));
        List<Long> sourceIds = new ArrayList<>();
        sourceIds.add(sources.ofUser(person.id()).id());
        sourceIds.addAll(sources.attachedFeeds(person.id()));
        return pages.response(caller.userId(), sourceIds, paging);
    }

    /**
     * Attaches a feed: its new items reach the caller's followers, and the caller, who is
     * subscribed to their own source as when they post. 201 when attached now, 200 if it was.
     */
    @PostMapping("/api/v1/me/feeds")
    ResponseEntity<SourceView> attach(Caller caller, @Valid @RequestBody AttachRequest request) {
        Stored<Source> feed = feeds.resolve(request.url());
        boolean already = sources.attachedFeeds(caller.userId()).contains(feed.id());
        ownSource.followed(caller.userId());
        sources.attach(caller.userId(), feed.id());
        return ResponseEntity.status(already ? HttpStatus.OK : HttpStatus.CREATED).body(sourceViews.of(feed));
    }

    @GetMapping("/api/v1/me/feeds")
    List<SourceView> attached(Caller caller) {
        return sourceViews.of(sources.getAll(sources.attachedFeeds(caller.userId())));
    }

    @DeleteMapping("/api/v1/me/feeds/{source_id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void detach(Caller caller, @PathVariable("source_id") String sourceId) {
        if (!sources.detach(caller.userId(), Ids.path(sourceId, "attached feed"))) {
            throw ApiProblem.notFound("attached feed");
        }
    }
}
