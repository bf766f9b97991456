package dev.tributary.pubsub;

import dev.tributary.storage.IdGenerator;
import org.springframework.stereotype.Component;

/** New ids for the crawler's and the api's own rows: unique across nodes and increasing with time, like every id. */
@Component
public final class NewIds {

    private final IdGenerator ids;

    NewIds(IdGenerator ids) {
        this.ids = ids;
    }

    /** A new id, never issued before on any node. */
    public long next() {
        return ids.next();
    }

    /** When an id was issued, to the millisecond: an item's id tells when it was stored. */
    public static java.time.Instant issuedAt(long id) {
        return IdGenerator.timestampOf(id);
    }
}
