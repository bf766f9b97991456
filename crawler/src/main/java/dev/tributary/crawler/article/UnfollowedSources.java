package dev.tributary.crawler.article;

import dev.tributary.pubsub.SourceUnfollowed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Withdraws a person's "always fetch the full article" wish for a source when they stop following
 * it, whichever path ended the subscription (REST, Google Reader, leaving a group): the wish
 * belongs to the subscription, and a stale one would come back with a later subscription and
 * crowd the sample of readers the crawler checks at ingest.
 */
@Component
class UnfollowedSources {

    private static final Logger log = LoggerFactory.getLogger(UnfollowedSources.class);

    private final ArticleStore store;

    UnfollowedSources(ArticleStore store) {
        this.store = store;
    }

    @EventListener
    void unfollowed(SourceUnfollowed event) {
        try {
            store.wantFull(event.userId(), event.sourceId(), false);
        } catch (DataAccessException e) {
            // The unsubscription stands; ingest checks each wisher's subscription, so the row only lingers.
            log.warn("person {} left source {}: could not withdraw their full-article wish: {}", event.userId(),
                    event.sourceId(), e.toString());
        }
    }
}
