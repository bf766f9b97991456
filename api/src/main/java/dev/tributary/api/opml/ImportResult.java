package dev.tributary.api.opml;

import java.util.List;

/**
 * What an OPML import did: feeds newly subscribed, feeds already subscribed, outlines refused
 * with why, the urls among the imported whose check had not ended within the budget (subscribed
 * unchecked: a dead one shows its error on its source once crawled), folders not created with
 * why (their feeds are subscribed all the same, unfiled), and the feeds among the imported whose
 * check failed in a way that may pass (a 5xx, a 429, a timeout): subscribed, retried by the crawler.
 */
record ImportResult(int imported, int skipped, List<ImportError> errors, List<String> unchecked, List<FolderError> folderErrors,
        List<ImportError> retrying) {

    /**
     * An outline that could not be subscribed to, with a stable {@code reason} key: a refused
     * feed's (as its 422 would say) or {@code too_many_subscriptions} once the person follows as
     * many as they may (every later new outline is then skipped for that reason, unregistered).
     */
    record ImportError(String url, String reason, String message) {
    }

    /** A folder of the document that could not be made (too many folders, a name the rules refuse). */
    record FolderError(String name, String message) {
    }
}
