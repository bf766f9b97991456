package dev.tributary.crawler;

import dev.tributary.crawler.refresh.FeedRefresher;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.FetchRecord;
import java.time.Duration;
import org.springframework.stereotype.Component;

/** Test driver: refreshes one feed now, as a crawl worker would, whatever its schedule says. */
@Component
class Crawl {

    private final CrawlStates states;
    private final FeedRefresher refresher;

    Crawl(CrawlStates states, FeedRefresher refresher) {
        this.states = states;
        this.refresher = refresher;
    }

    /** Claims and refreshes {@code sourceId}; the record stored, or null if it could not be claimed. */
    FetchRecord refresh(long sourceId) {
        CrawlState claimed = states.claim(sourceId, "test", Duration.ofSeconds(30)).orElseThrow(
                () -> new AssertionError("feed " + sourceId + " could not be claimed"));
        try {
            return refresher.refresh(claimed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    CrawlState state(long sourceId) {
        return states.find(sourceId).orElseThrow();
    }
}
