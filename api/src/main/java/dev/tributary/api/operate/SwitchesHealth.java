package dev.tributary.api.operate;

import dev.tributary.pubsub.Switches;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code switches} component of {@code /actuator/health}: which features are switched off.
 * Always UP: a switched-off feature is a choice an operator made, not a fault, and must not take
 * the node out of a load balancer.
 */
@Component("switchesHealthIndicator") // the health component "switches"
class SwitchesHealth implements HealthIndicator {

    private final Switches switches;

    SwitchesHealth(Switches switches) {
        this.switches = switches;
    }

    @Override
    public Health health() {
        return Health.up().withDetails(SwitchesEndpoint.view(switches.all())).build();
    }
}
