package dev.tributary.api.opml;

import org.jspecify.annotations.Nullable;

/**
 * One feed outline of an OPML document: its {@code xmlUrl}, its title and web page if it names
 * them, and the folder it is filed in: the innermost enclosing outline that has a name and no
 * {@code xmlUrl} (null at the top level). A feed filed in several folders is one outline in each.
 */
record OpmlFeed(String xmlUrl, @Nullable String title, @Nullable String htmlUrl, @Nullable String folder) {

    /** A feed in no folder. */
    OpmlFeed(String xmlUrl, @Nullable String title, @Nullable String htmlUrl) {
        this(xmlUrl, title, htmlUrl, null);
    }
}
