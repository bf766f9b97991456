package dev.tributary.api.subscription;

import dev.tributary.api.ratelimit.ActionRates;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.crawler.RefreshRequests;
import dev.tributary.crawler.RefreshRequests.Outcome;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * "Refresh now" of one of the caller's feed subscriptions: counted against the person's
 * allowance, then left to the crawler's politeness, which may say when instead.
 */
@RestController
class RefreshController {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private final Subscriptions subscriptions;
    private final RefreshRequests refreshes;
    private final ActionRates rates;

    RefreshController(Subscriptions subscriptions, RefreshRequests refreshes, ActionRates rates) {
        this.subscriptions = subscriptions;
        this.refreshes = refreshes;
        this.rates = rates;
    }

    /** A refresh the crawler took: the feed is fetched at {@code fetch_at} or within seconds after. */
    record RefreshQueued(@Schema(description = "When the feed is due: now, or the moment it is being fetched.")
                         Instant fetchAt) {
    }

    @Operation(summary = "Refresh a feed now",
            description = "Makes the subscription's feed due at once; the crawler fetches it within seconds, through its "
                    + "host's queue. Politeness comes first: a feed fetched less than tributary.crawler.min-interval ago, "
                    + "or whose server last answered 429 or 503, is not fetched early: 429 with Retry-After (when asking "
                    + "again could help), fetch_at (when it will be fetched anyway) and reason (recently_fetched, "
                    + "server_asked_to_wait). Each request counts against the caller's refreshes a minute "
                    + "(tributary.api.refresh.per-person-per-minute), also 429. A person's or a group's subscription, "
                    + "or a feed that is gone, is a 409.")
    @ApiResponse(responseCode = "202", description = "Queued")
    @PostMapping("/api/v1/subscriptions/{id}/refresh")
    @ResponseStatus(HttpStatus.ACCEPTED)
    RefreshQueued refresh(Caller caller, @PathVariable String id) {
        Subscription subscription = subscriptions.byId(caller.userId(), Ids.path(id, "subscription"))
                .orElseThrow(() -> ApiProblem.notFound("subscription"));
        rates.take(caller.userId(), ActionRates.Action.FEED_REFRESH);
        return switch (refreshes.request(subscription.sourceId())) {
            case Outcome.Queued queued -> new RefreshQueued(queued.fetchAt());
            case Outcome.TooSoon wait -> throw tooSoon(wait);
            case Outcome.NotFetched gone -> throw ApiProblem.conflict("This feed is " + gone.status()
                    + ": it is no longer fetched.");
            case Outcome.NotCrawled ignored -> throw ApiProblem.conflict(
                    "Only feeds are fetched: a person's or a group's posts arrive as they are written.");
        };
    }

    private static ApiProblem tooSoon(Outcome.TooSoon wait) {
        Instant now = Instant.now();
        long seconds = Math.max(1, Duration.between(now, wait.askAgainAt()).toSeconds());
        String why = switch (wait.reason()) {
            case RECENTLY_FETCHED -> "This feed was fetched a moment ago; to spare its site it is fetched again at "
                    + CLOCK.format(wait.fetchAt().truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES)) + " at the latest.";
            case SERVER_ASKED_TO_WAIT -> "This feed's site asked us to wait; it is fetched again at "
                    + CLOCK.format(wait.fetchAt().truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES)) + ".";
        };
        ApiProblem problem = ApiProblem.tooManyRequests(why, seconds);
        problem.getBody().setProperty("fetch_at", wait.fetchAt().toString());
        problem.getBody().setProperty("reason", wait.reason().name().toLowerCase(Locale.ROOT));
        return problem;
    }
}
