package dev.tributary.api.opml;

import java.util.List;

/**
 * What an OPML import did: feeds newly subscribed, feeds already subscribed, outlines refused
 * with why, and folders not created with why (their feeds are subscribed all the same, unfiled).
 */
record ImportResult(int imported, int skipped, List<ImportError> errors, List<FolderError> folderErrors) {

    /** An outline that could not be subscribed to. */
    record ImportError(String url, String message) {
    }

    /** A folder of the document that could not be made (too many folders, a name the rules refuse). */
    record FolderError(String name, String message) {
    }
}
