package dev.tributary.crawler;

import dev.tributary.crawler.normalize.Embeds;
import java.util.SortedSet;

/** The video players whose embeds the crawler keeps in content: what a page may frame. */
public final class VideoPlayers {

    private VideoPlayers() {
    }

    /** The players' hosts (exact, lower case); each serves its embeds over https only. */
    public static SortedSet<String> hosts() {
        return Embeds.hosts();
    }
}
