package dev.tributary.api.ratelimit;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.crawler.ArticleSettings;
import dev.tributary.pubsub.LimitSettings;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Per-person rates of actions that put content in front of others (posts, comments) or make the
 * server fetch for them (full articles, "refresh now"), counted in Redis per minute so that every node shares
 * them ({@code tributary.limits.*-per-minute}, {@code tributary.articles.per-person-per-minute}).
 * Each service that performs such an action takes one here, whatever path called it.
 */
@Component
public class ActionRates {

    /** What is counted, with its bucket's key prefix. */
    public enum Action {
        POST("posts"), COMMENT("comments"),
        /** A full article fetched for the person (reading a kept one is not counted). */
        ARTICLE_FETCH("article-fetches"),
        /** A reader's "refresh now" of a feed (refused by politeness or not). */
        FEED_REFRESH("refreshes");

        private final String noun;

        Action(String noun) {
            this.noun = noun;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ActionRates.class);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final Buckets buckets;
    private final LimitSettings limits;
    private final ArticleSettings articles;
    private final RefreshSettings refreshes;

    ActionRates(Buckets buckets, LimitSettings limits, ArticleSettings articles, RefreshSettings refreshes) {
        this.buckets = buckets;
        this.refreshes = refreshes;
        this.limits = limits;
        this.articles = articles;
    }

    /**
     * Counts one action of the person's.
     *
     * @throws ApiProblem 429 with Retry-After if they have used this minute's allowance
     */
    public void take(long userId, Action action) {
        int limit = switch (action) {
            case POST -> limits.postsPerMinute();
            case COMMENT -> limits.commentsPerMinute();
            case ARTICLE_FETCH -> articles.perPersonPerMinute();
            case FEED_REFRESH -> refreshes.perPersonPerMinute();
        };
        Bucket bucket;
        try {
            bucket = buckets.take("rate:" + action.noun + ":" + userId, limit, MINUTE);
        } catch (DataAccessException | IllegalStateException redisTrouble) {
            // Like the request limiter: Redis being away must not stop people writing.
            log.warn("could not count {} of {}; let through: {}", action.noun, userId, redisTrouble.toString());
            return;
        }
        if (bucket.exceeded()) {
            String allowance = switch (action) {
                case ARTICLE_FETCH -> "have " + limit + " full articles fetched";
                case FEED_REFRESH -> "ask for " + limit + " feed refreshes";
                case POST, COMMENT -> "write " + limit + " " + action.noun;
            };
            throw ApiProblem.tooManyRequests("You may " + allowance + " a minute; wait " + bucket.resetSeconds() + " s.",
                    bucket.resetSeconds());
        }
    }
}
