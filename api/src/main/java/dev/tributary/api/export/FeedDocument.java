package dev.tributary.api.export;

import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Stored;
import java.time.Instant;
import java.util.List;

/**
 * What an exported feed says, whatever its format.
 * @param id the feed's stable identity (Atom's id)
 * @param title the feed's title
 * @param link the web page the feed stands for
 * @param site the web front end's root url, ending in {@code /}: an item's page is {@code site + "items/" + id}
 * @param selfUrl the feed's own url (its WebSub topic)
 * @param hubUrl the WebSub hub that pushes it
 * @param description one line about it (RSS requires one)
 * @param since when the feed's owner came to be: its date while it has no items
 * @param items newest first
 */
record FeedDocument(String id, String title, String link, String site, String selfUrl, String hubUrl, String description, Instant since,
        List<Stored<Item>> items) {
}
