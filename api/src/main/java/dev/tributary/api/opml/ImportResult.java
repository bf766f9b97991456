package dev.tributary.api.opml;

import java.util.List;

/** What an OPML import did: feeds newly subscribed, feeds already subscribed, and outlines refused with why. */
record ImportResult(int imported, int skipped, List<ImportError> errors) {

    /** An outline that could not be subscribed to. */
    record ImportError(String url, String message) {
    }
}
