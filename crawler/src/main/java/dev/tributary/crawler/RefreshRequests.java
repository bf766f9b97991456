package dev.tributary.crawler;

import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * A reader's "refresh now" for one feed. The feed is made due at once when politeness allows,
 * and the crawl workers fetch it through its host's queue like any due feed (never in the
 * request); otherwise it says when the feed will be fetched and when asking again could help.
 */
@Service
public class RefreshRequests {

    /** What became of a request. */
    public sealed interface Outcome {

        /** Due now (or being fetched): the crawl workers fetch it at {@code fetchAt} or soon after. */
        record Queued(Instant fetchAt) implements Outcome {
        }

        /**
         * Politeness says wait: it is fetched at {@code fetchAt} as scheduled; asking again before
         * {@code askAgainAt} changes nothing.
         */
        record TooSoon(Instant fetchAt, Instant askAgainAt, Reason reason) implements Outcome {
        }

        /** The feed answered 410 Gone (or was retired): nothing is fetched. */
        record NotFetched(String status) implements Outcome {
        }

        /** Not a crawled feed (a person or a group), or unknown. */
        record NotCrawled() implements Outcome {
        }
    }

    /** Why a refresh has to wait. */
    public enum Reason {
        /** Fetched less than {@code tributary.crawler.min-interval} ago. */
        RECENTLY_FETCHED,
        /** Its server last answered 429 or 503: its Retry-After (or our backoff) stands. */
        SERVER_ASKED_TO_WAIT
    }

    private final CrawlStates states;
    private final Duration minInterval;
    private final Clock clock;

    RefreshRequests(CrawlStates states, CrawlerSettings settings, ObjectProvider<Clock> clock) {
        this.states = states;
        this.minInterval = settings.minInterval();
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    public Outcome request(long sourceId) {
        boolean moved = states.bringForward(sourceId, minInterval);
        Optional<CrawlState> found = states.find(sourceId);
        if (found.isEmpty()) {
            return new Outcome.NotCrawled();
        }
        CrawlState state = found.get();
        Instant now = clock.instant();
        if (state.status() == CrawlStatusKind.GONE || state.status() == CrawlStatusKind.RETIRED) {
            return new Outcome.NotFetched(state.status().wireName());
        }
        if (moved || state.leaseToken() != null || !state.nextFetchAt().isAfter(now)) {
            // Moved, being fetched, or due already: the workers take it at their next look.
            return new Outcome.Queued(state.leaseToken() != null || state.nextFetchAt().isBefore(now) ? now : state.nextFetchAt());
        }
        if (state.lastHttpStatus() != null && (state.lastHttpStatus() == 429 || state.lastHttpStatus() == 503)) {
            return new Outcome.TooSoon(state.nextFetchAt(), state.nextFetchAt(), Reason.SERVER_ASKED_TO_WAIT);
        }
        Instant polite = state.lastFetchedAt() == null ? now : state.lastFetchedAt().plus(minInterval);
        Instant askAgain = polite.isAfter(state.nextFetchAt()) ? state.nextFetchAt() : polite;
        return new Outcome.TooSoon(state.nextFetchAt(), askAgain.isBefore(now) ? now : askAgain, Reason.RECENTLY_FETCHED);
    }
}
