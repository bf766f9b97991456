package dev.tributary.api.hub;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code websubHub} component of {@code /actuator/health}: subscriptions, the delivery
 * backlog and the age of its oldest entry (as last sampled). Always UP: a slow subscriber is
 * the subscriber's trouble and must not take the node out of a load balancer.
 */
@Component("websubHubHealthIndicator")
class HubHealth implements HealthIndicator {

    private final HubMetrics metrics;
    private final HubSettings settings;

    HubHealth(HubMetrics metrics, HubSettings settings) {
        this.metrics = metrics;
        this.settings = settings;
    }

    @Override
    public Health health() {
        Subscribers.Backlog backlog = metrics.backlog();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("enabled", settings.enabled());
        details.put("subscriptions", backlog.subscriptions());
        details.put("max_subscriptions", settings.maxSubscriptions());
        details.put("backlog", backlog.pending());
        details.put("oldest_pending_seconds", metrics.oldestSeconds());
        details.put("sampled_at", metrics.sampledAt().toString());
        return Health.up().withDetails(details).build();
    }
}
