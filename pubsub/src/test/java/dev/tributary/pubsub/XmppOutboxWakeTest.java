package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import dev.tributary.storage.testing.Await;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * An idle XMPP publisher waits for rows committed on its node, not for its next poll: the outbox's
 * mark moves when rows commit (not when they are written, nor on a rollback), and a wait from an
 * older mark ends then, however long the poll.
 */
@WithEmbeddedPubsub
class XmppOutboxWakeTest {

    private static final Duration NEVER = Duration.ofHours(1);

    @Autowired JdbcClient jdbc;
    @Autowired JdbcTemplate template;
    @Autowired IdGenerator ids;
    @Autowired Transactions tx;
    @Autowired ObjectProvider<MeterRegistry> meters;

    private XmppOutbox outbox() {
        XmppSettings on = new XmppSettings("127.0.0.1", 5222, "example.org", "tributary@example.org", "secret",
                "pubsub.example.org", false, 100_000, 50, Duration.ofSeconds(30), NEVER, Duration.ofSeconds(30), 5,
                Duration.ofMinutes(15));
        return new XmppOutbox(on, jdbc, template, ids, tx, meters);
    }

    @Test
    void theMarkMovesWhenRowsCommitNotWhenWrittenNorOnRollback() {
        XmppOutbox outbox = outbox();
        long before = outbox.mark();
        AtomicLong inside = new AtomicLong();
        tx.run("publish", () -> {
            outbox.published(ids.next(), List.of(ids.next()));
            inside.set(outbox.mark());
        });
        assertThat(inside.get()).as("written, not yet committed").isEqualTo(before);
        long committed = outbox.mark();
        assertThat(committed).isNotEqualTo(before);

        assertThatThrownBy(() -> tx.run("publish, then fail", () -> {
            outbox.published(ids.next(), List.of(ids.next()));
            throw new IllegalStateException("rolled back");
        })).hasMessage("rolled back");
        assertThat(outbox.mark()).as("nothing committed").isEqualTo(committed);
    }

    @Test
    void aWaitFromAnOlderMarkEndsWhenRowsCommitThoughThePollIsAnHour() throws Exception {
        XmppOutbox outbox = outbox();
        long mark = outbox.mark();
        Thread waiting = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                outbox.awaitRows(mark, NEVER);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // Asleep in the wait before the commit, so what ends it is the signal, not a mark already moved.
        Await.until("the publisher's wait asleep", () -> waiting.getState() == Thread.State.TIMED_WAITING);
        tx.run("publish", () -> outbox.published(ids.next(), List.of(ids.next())));
        Await.until("the idle wait ended by the commit", () -> !waiting.isAlive());
        // A mark that is already behind does not wait at all.
        outbox.awaitRows(mark, NEVER);
    }
}
