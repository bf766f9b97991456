package dev.tributary.api.retention;

import java.time.Duration;
import java.util.function.LongConsumer;

/** One kind of data that is removed once nobody needs it, on a schedule {@link RetentionJobs} keeps. */
public interface RetentionJob {

    /** Stable name: the {@code job} tag of {@code tributary.retention.removed} and the log name. */
    String name();

    /** Time between two sweeps. */
    Duration every();

    /**
     * One sweep in bounded batches, each its own transaction, reporting each batch's removals as
     * it commits (so the metric moves even if a later batch fails); the total removed.
     */
    long sweep(LongConsumer removed);
}
