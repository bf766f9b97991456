package dev.tributary.api.export;

import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Stored;
import org.springframework.stereotype.Component;

/** An item's Atom 1.0 {@code <entry>}, exactly as the Atom export writes it, for pushes elsewhere (XMPP). */
@Component
public class AtomEntries {

    private final FeedWriter writer;

    AtomEntries(FeedWriter writer) {
        this.writer = writer;
    }

    /**
     * The entry as XML, its namespaces declared on it.
     *
     * @param site the web front end's root url, ending in {@code /} (an item without a link links to its page there)
     */
    public String entry(Stored<Item> item, String site) {
        return writer.atomEntry(item, site);
    }
}
