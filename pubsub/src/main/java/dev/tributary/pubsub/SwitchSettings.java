package dev.tributary.pubsub;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Run-time feature switches ({@code tributary.switches.*}).
 *
 * @param refresh how long a node trusts its copy of the switches before reading Redis again:
 *        a flip reaches every other node within this time (the node that flips sees it at once)
 */
@ConfigurationProperties("tributary.switches")
@Validated
public record SwitchSettings(@NotNull @DefaultValue("2s") Duration refresh) {

    public SwitchSettings {
        if (refresh != null && (refresh.isNegative() || refresh.compareTo(Duration.ofMinutes(5)) > 0)) {
            throw new IllegalArgumentException("tributary.switches.refresh must be between 0 and 5m, not " + refresh);
        }
    }
}
