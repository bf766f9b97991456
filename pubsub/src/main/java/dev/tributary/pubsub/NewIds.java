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
}
