package dev.tributary.pubsub.inbox;

import java.util.OptionalLong;

/** What fan-out has still to deliver, as far as the count horizon needs to know: kept below it. */
public interface FanoutBacklog {

    /** The smallest item id whose deliveries are not all written yet (a pending task), if any. */
    OptionalLong oldestItem();
}
