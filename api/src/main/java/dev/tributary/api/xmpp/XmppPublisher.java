package dev.tributary.api.xmpp;

import dev.tributary.pubsub.Roles;
import dev.tributary.pubsub.XmppOutbox;
import dev.tributary.pubsub.XmppSettings;
import dev.tributary.pubsub.XmppTask;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Publishes the XMPP outbox: one thread on a node of the {@code fanout} role, and only while it
 * holds the outbox's lease, so one node publishes at a time and rows go out in the order they
 * were written. The lease is renewed in the middle of a batch once a third of it went by, and
 * the batch stops if it was lost; every answer is awaited at most a sixth of the lease, so a row
 * sent under the lease is answered (or given up) before another node may take it over. Rows are
 * marked in doubt before they are sent: a publish tried again is first checked against the node. A row is deleted once the server answered it (a message, once a later round trip
 * came back); while the server is away nothing is deleted and the whole outbox waits, retried
 * with exponential backoff up to {@code tributary.xmpp.max-backoff}. A row the server refuses
 * is retried alone, then dropped after {@link #MAX_ATTEMPTS} (counted). Crawl and fan-out only
 * write rows; they never wait on this.
 */
@Component
class XmppPublisher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(XmppPublisher.class);

    /** Refusals of one row before it is dropped (a node the server will not take, an address it rejects). */
    static final int MAX_ATTEMPTS = 8;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

    private final XmppSettings settings;
    private final XmppOutbox outbox;
    private final XmppDelivery delivery;
    private final boolean enabled;
    private final String owner;
    private final Counter published;
    private final Counter refused;
    private final Counter dropped;
    private final Counter failures;
    private volatile boolean running;
    private volatile boolean connected;
    private volatile String lastError = "";
    private Thread thread;
    /** {@link System#nanoTime} just before the lease was last taken or renewed. */
    private long leaseFrom;

    XmppPublisher(XmppSettings settings, XmppOutbox outbox, XmppDelivery delivery, Roles roles,
            ObjectProvider<MeterRegistry> registries) {
        this.settings = settings;
        this.outbox = outbox;
        this.delivery = delivery;
        this.enabled = settings.enabled() && roles.runs(XmppSettings.ROLE);
        this.owner = host() + "-" + UUID.randomUUID();
        MeterRegistry meters = registries.getIfAvailable(SimpleMeterRegistry::new);
        this.published = Counter.builder("tributary.xmpp.published").description("outbox rows the XMPP server took")
                .register(meters);
        this.refused = Counter.builder("tributary.xmpp.refused").description("outbox rows the XMPP server refused (retried)")
                .register(meters);
        this.dropped = Counter.builder("tributary.xmpp.refused.dropped")
                .description("outbox rows dropped after being refused " + MAX_ATTEMPTS + " times").register(meters);
        this.failures = Counter.builder("tributary.xmpp.connection.failures")
                .description("times the XMPP server could not be reached or the session broke").register(meters);
    }

    boolean connected() {
        return connected;
    }

    String lastError() {
        return lastError;
    }

    @Override
    public void start() {
        if (!enabled) {
            return;
        }
        running = true;
        thread = Thread.ofPlatform().name("xmpp-publisher").daemon(true).start(this::loop);
    }

    @Override
    public void stop() {
        running = false;
        Thread current = thread;
        if (current != null) {
            current.interrupt();
            try {
                current.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void loop() {
        Duration backoff = FIRST_BACKOFF;
        // A resource of its own: two nodes signed in as the same address must not knock each other's session off.
        try (XmppConnection xmpp = new XmppConnection(settings, "tributary-" + owner.substring(owner.length() - 8))) {
            while (running) {
                try {
                    if (!renew()) {
                        xmpp.close();
                        connected = false;
                        pause(settings.leaseTtl().dividedBy(3));
                        continue;
                    }
                    // Taken before looking: rows committed here while this round finds none end the wait at once.
                    long mark = outbox.mark();
                    if (!round(xmpp)) {
                        outbox.backlog();
                        outbox.awaitRows(mark, settings.pollInterval());
                    }
                    backoff = FIRST_BACKOFF;
                } catch (IOException | SmackException | XMPPException e) {
                    failures.increment();
                    connected = false;
                    lastError = e.toString();
                    xmpp.drop();
                    log.warn("XMPP server {}:{} unreachable or the session broke; retrying in {}: {}", settings.server(),
                            settings.port(), backoff, e.toString());
                    outbox.backlog();
                    pause(backoff);
                    backoff = next(backoff);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    // The database, most likely: the rows stay, tried again after the pause.
                    lastError = e.toString();
                    log.warn("XMPP publisher: {}", e.toString(), e);
                    pause(backoff);
                    backoff = next(backoff);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connected = false;
            try {
                outbox.releaseLease(owner);
            } catch (RuntimeException e) {
                log.debug("XMPP publisher lease not released: {}", e.toString());
            }
        }
    }

    private boolean renew() {
        long before = System.nanoTime();
        if (!outbox.holdLease(owner)) {
            return false;
        }
        leaseFrom = before;
        return true;
    }

    /** Whether the lease still holds for longer than the next row can take; renewed once a third of it went by. */
    private boolean leaseHolds() {
        return System.nanoTime() - leaseFrom < settings.leaseTtl().dividedBy(3).toNanos() || renew();
    }

    /** Publishes one batch of due rows; false if there were none. */
    private boolean round(XmppConnection xmpp) throws IOException, SmackException, XMPPException, InterruptedException {
        List<XmppTask> due = outbox.due(settings.batch());
        if (due.isEmpty()) {
            return false;
        }
        xmpp.open();
        connected = true;
        outbox.sending(due.stream().map(XmppTask::id).toList());
        List<Long> done = new ArrayList<>(due.size());
        List<Long> sent = new ArrayList<>();
        try {
            for (XmppTask task : due) {
                if (!leaseHolds()) {
                    // Another node has it now (this one was too slow to renew): what is left is theirs.
                    log.info("XMPP publisher lease lost in the middle of a batch; {} rows left to its new holder",
                            due.size() - done.size() - sent.size());
                    break;
                }
                try {
                    if (delivery.send(xmpp, task)) {
                        sent.add(task.id());
                    } else {
                        done.add(task.id());
                    }
                } catch (XMPPException.XMPPErrorException | RuntimeException refusedRow) {
                    // This row alone (a refusal, a payload Smack cannot carry): the others go on.
                    refused(task, refusedRow);
                }
            }
            if (!sent.isEmpty() && leaseHolds()) {
                xmpp.confirm();
                done.addAll(sent);
            }
        } finally {
            // What the server answered is done even if the session broke afterwards: never published twice.
            outbox.done(done);
            published.increment(done.size());
        }
        return true;
    }

    private void refused(XmppTask task, Exception e) {
        refused.increment();
        if (task.attempts() + 1 >= MAX_ATTEMPTS) {
            dropped.increment();
            outbox.done(List.of(task.id()));
            log.warn("XMPP outbox row {} ({} of item {}) refused {} times, dropped: {}", task.id(), task.kind(), task.itemId(),
                    MAX_ATTEMPTS, e.toString());
        } else {
            outbox.retry(task.id(), next(FIRST_BACKOFF.multipliedBy(1L << Math.min(task.attempts(), 16))));
            log.info("XMPP outbox row {} ({} of item {}) refused, retried later: {}", task.id(), task.kind(), task.itemId(),
                    e.toString());
        }
    }

    private Duration next(Duration backoff) {
        Duration doubled = backoff.multipliedBy(2);
        Duration capped = doubled.compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff() : doubled;
        // Jitter, so that nodes coming back at once do not knock together.
        return capped.plusMillis(ThreadLocalRandom.current().nextLong(0, Math.max(1, capped.toMillis() / 10)));
    }

    private void pause(Duration duration) throws InterruptedException {
        Thread.sleep(duration);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "node";
        }
    }
}
