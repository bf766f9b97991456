package dev.tributary.api.xmpp;

import dev.tributary.pubsub.XmppOutbox;
import dev.tributary.pubsub.XmppSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code xmpp} component of {@code /actuator/health}, present when XMPP push is set up: the
 * outbox's backlog and oldest row, and whether this node's publisher is connected. DOWN only when
 * the backlog reached its bound (new pushes are being dropped); a server that is away for a while
 * is UP with a growing backlog. Not part of readiness: a node serves its API whatever XMPP does.
 */
@Component("xmppHealthIndicator")
@ConditionalOnExpression("'${tributary.xmpp.server:}' != ''")
class XmppHealth implements HealthIndicator {

    private final XmppOutbox outbox;
    private final XmppSettings settings;
    private final XmppPublisher publisher;

    XmppHealth(XmppOutbox outbox, XmppSettings settings, XmppPublisher publisher) {
        this.outbox = outbox;
        this.settings = settings;
        this.publisher = publisher;
    }

    @Override
    public Health health() {
        long backlog = outbox.backlog();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("backlog", backlog);
        details.put("max_backlog", settings.maxBacklog());
        details.put("oldest_seconds", outbox.oldest().toSeconds());
        details.put("publishing_here", publisher.isRunning());
        details.put("connected", publisher.connected());
        if (!publisher.lastError().isEmpty()) {
            details.put("last_error", publisher.lastError());
        }
        return (backlog >= settings.maxBacklog() ? Health.down() : Health.up()).withDetails(details).build();
    }
}
