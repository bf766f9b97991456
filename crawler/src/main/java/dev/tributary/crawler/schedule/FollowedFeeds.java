package dev.tributary.crawler.schedule;

import dev.tributary.pubsub.SourceFollowed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/** Wakes a feed set aside for want of readers as soon as someone follows it again, and takes a slow feed out of the back of the claims once it has another reader. */
@Component
class FollowedFeeds {

    private static final Logger log = LoggerFactory.getLogger(FollowedFeeds.class);

    private final CrawlStates states;

    FollowedFeeds(CrawlStates states) {
        this.states = states;
    }

    @EventListener
    void followed(SourceFollowed event) {
        try {
            if (states.wake(event.sourceId())) {
                log.debug("feed {} has a reader again: due at once", event.sourceId());
            }
            // Another reader: no longer one person's slow feed to put last (its next fetch decides again).
            states.unpenalise(event.sourceId());
        } catch (DataAccessException e) {
            // The subscription stands; the feed's next look (at most retire-after away) finds the reader.
            log.warn("feed {}: could not wake it for its new reader: {}", event.sourceId(), e.toString());
        }
    }
}
