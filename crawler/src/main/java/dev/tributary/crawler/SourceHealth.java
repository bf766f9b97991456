package dev.tributary.crawler;

import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** The crawl health of feed sources, for the API's source objects. */
@Service
public class SourceHealth {

    private final CrawlStates states;

    SourceHealth(CrawlStates states) {
        this.states = states;
    }

    /** Empty for sources that are not crawled (people and groups). */
    public Optional<CrawlStatus> of(long sourceId) {
        return states.find(sourceId).map(this::status);
    }

    /** Keyed by source id; sources that are not crawled are missing. */
    public Map<Long, CrawlStatus> of(Collection<Long> sourceIds) {
        Map<Long, CrawlStatus> statuses = new HashMap<>();
        for (CrawlState state : states.findAll(sourceIds)) {
            statuses.put(state.sourceId(), status(state));
        }
        return statuses;
    }

    private CrawlStatus status(CrawlState state) {
        // Neither a gone nor a retired feed has a next fetch to show.
        boolean gone = state.status() == CrawlStatusKind.GONE || state.status() == CrawlStatusKind.RETIRED;
        return new CrawlStatus(state.status().wireName(), state.lastFetchedAt(), gone ? null : state.nextFetchAt(),
                state.lastError(), state.lastErrorKey(), state.lastHttpStatus(), !gone && state.push() != null && state.push().activeAt(Instant.now()));
    }
}
