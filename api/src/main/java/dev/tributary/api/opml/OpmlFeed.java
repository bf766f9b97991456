package dev.tributary.api.opml;

import org.jspecify.annotations.Nullable;

/** One feed outline of an OPML document: its {@code xmlUrl}, and its title and web page if it names them. */
record OpmlFeed(String xmlUrl, @Nullable String title, @Nullable String htmlUrl) {
}
