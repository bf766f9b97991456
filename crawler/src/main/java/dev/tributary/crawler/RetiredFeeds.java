package dev.tributary.crawler;

import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.pubsub.Sources;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Service;

/**
 * Feeds retired for want of readers ({@code tributary.crawler.retire-after}), for the jobs that
 * purge their items. Retirement is a crawl flag, woken by an after-commit event when someone
 * follows the feed again; that event is lost if the node dies between the two, so what is listed
 * here is first checked against the readers pubsub holds, and a feed found followed is woken.
 */
@Service
public class RetiredFeeds {

    /** Most feeds one call lists. */
    public static final int MAX_PAGE = 1000;

    private final CrawlStates states;
    private final Sources sources;

    RetiredFeeds(CrawlStates states, Sources sources) {
        this.states = states;
        this.sources = sources;
    }

    /**
     * Source ids of feeds retired at least {@code grace} ago and still without readers, greater
     * than {@code afterSourceId}, ascending, at most {@code limit} (1..{@link #MAX_PAGE}); empty
     * only when the listing is done. Followed ones met on the way are woken.
     */
    public List<Long> retiredLongerThan(Duration grace, long afterSourceId, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_PAGE + ", not " + limit);
        }
        long after = afterSourceId;
        while (true) {
            List<Long> page = states.retiredBefore(grace, after, limit);
            List<Long> unread = withoutReaders(page);
            if (!unread.isEmpty() || page.size() < limit) {
                return unread;
            }
            after = page.getLast();
        }
    }

    /**
     * Wakes every retired feed someone follows again whose wake-up was lost, however recently it
     * was retired; how many it woke. A page of retired feeds at a time.
     */
    public int wakeFollowed() {
        int woken = 0;
        long after = 0;
        List<Long> page;
        do {
            page = states.retiredBefore(Duration.ZERO, after, MAX_PAGE);
            woken += page.size() - withoutReaders(page).size();
            after = page.isEmpty() ? after : page.getLast();
        } while (page.size() == MAX_PAGE);
        return woken;
    }

    /** False once someone follows the feed again (it is woken, if its wake-up was lost), or if it was never retired. */
    public boolean isRetired(long sourceId) {
        return states.isRetired(sourceId) && !withoutReaders(List.of(sourceId)).isEmpty();
    }

    private List<Long> withoutReaders(List<Long> retired) {
        if (retired.isEmpty()) {
            return retired;
        }
        Set<Long> read = sources.read(retired);
        read.forEach(states::wake);
        return retired.stream().filter(id -> !read.contains(id)).toList();
    }
}
