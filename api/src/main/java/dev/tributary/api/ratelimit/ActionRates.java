package dev.tributary.api.ratelimit;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.LimitSettings;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Per-person rates of actions that put content in front of others (posts, comments), counted in
 * Redis per minute so that every node shares them ({@code tributary.limits.*-per-minute}). Each
 * service that performs such an action takes one here, whatever path called it.
 */
@Component
public class ActionRates {

    /** What is counted, with its bucket's key prefix. */
    public enum Action {
        POST("posts"), COMMENT("comments");

        private final String noun;

        Action(String noun) {
            this.noun = noun;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ActionRates.class);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final Buckets buckets;
    private final LimitSettings limits;

    ActionRates(Buckets buckets, LimitSettings limits) {
        this.buckets = buckets;
        this.limits = limits;
    }

    /**
     * Counts one action of the person's.
     *
     * @throws ApiProblem 429 with Retry-After if they have used this minute's allowance
     */
    public void take(long userId, Action action) {
        int limit = action == Action.POST ? limits.postsPerMinute() : limits.commentsPerMinute();
        Bucket bucket;
        try {
            bucket = buckets.take("rate:" + action.noun + ":" + userId, limit, MINUTE);
        } catch (DataAccessException | IllegalStateException redisTrouble) {
            // Like the request limiter: Redis being away must not stop people writing.
            log.warn("could not count {} of {}; let through: {}", action.noun, userId, redisTrouble.toString());
            return;
        }
        if (bucket.exceeded()) {
            throw ApiProblem.tooManyRequests("You may write " + limit + " " + action.noun + " a minute; wait "
                    + bucket.resetSeconds() + " s.", bucket.resetSeconds());
        }
    }
}
