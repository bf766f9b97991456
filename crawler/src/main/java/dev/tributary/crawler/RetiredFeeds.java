package dev.tributary.crawler;

import dev.tributary.crawler.schedule.CrawlStates;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Service;

/** Feeds retired for want of readers ({@code tributary.crawler.retire-after}), for the jobs that purge their items. */
@Service
public class RetiredFeeds {

    /** Most feeds one call lists. */
    public static final int MAX_PAGE = 1000;

    private final CrawlStates states;

    RetiredFeeds(CrawlStates states) {
        this.states = states;
    }

    /**
     * Source ids of feeds retired at least {@code grace} ago, greater than {@code afterSourceId},
     * ascending, at most {@code limit} (1..{@link #MAX_PAGE}).
     */
    public List<Long> retiredLongerThan(Duration grace, long afterSourceId, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_PAGE + ", not " + limit);
        }
        return states.retiredBefore(grace, afterSourceId, limit);
    }

    /** False once someone follows the feed again (it is woken), or if it was never retired. */
    public boolean isRetired(long sourceId) {
        return states.isRetired(sourceId);
    }
}
