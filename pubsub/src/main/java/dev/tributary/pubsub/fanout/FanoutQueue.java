package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;
import dev.tributary.storage.Transactions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Where publishing records fan-out work: durable tasks written in the publisher's transaction,
 * and this node's workers woken once it commits.
 */
@Component
public class FanoutQueue {

    private final FanoutTasks tasks;
    private final FanoutSignal signal;
    private final Transactions tx;

    FanoutQueue(FanoutTasks tasks, FanoutSignal signal, Transactions tx) {
        this.tasks = tasks;
        this.signal = signal;
        this.tx = tx;
    }

    /**
     * One delivery per new item (id → media type) and audience: the source itself and every
     * profile relaying it. {@code sourceSeq}: the source's publish count of this publish
     * ({@link dev.tributary.pubsub.pull.SourceAudiences#lockForPublish}).
     */
    public void deliver(long sourceId, Collection<Long> audiences, Map<Long, MediaType> items, long sourceSeq) {
        List<FanoutTasks.NewTask> list = new ArrayList<>(items.size() * audiences.size());
        items.forEach((itemId, media) -> audiences.forEach(audience ->
                list.add(new FanoutTasks.NewTask(FanoutTask.Kind.DELIVER, itemId, sourceId, audience, media, sourceSeq))));
        record(list);
    }

    /** The retraction of a tombstoned item from every inbox that holds it. */
    public void retract(long itemId, long sourceId, MediaType media) {
        record(List.of(new FanoutTasks.NewTask(FanoutTask.Kind.RETRACT, itemId, sourceId, sourceId, media, 0)));
    }

    private void record(List<FanoutTasks.NewTask> list) {
        if (!list.isEmpty()) {
            tasks.add(list);
            tx.afterCommit(signal::wake);
        }
    }
}
