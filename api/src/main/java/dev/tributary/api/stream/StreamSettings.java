package dev.tributary.api.stream;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the live stream ({@code tributary.api.stream.*}).
 * @param heartbeat how often an idle stream sends a comment line (keeps proxies from closing it, finds dead clients)
 * @param perPerson streams one person may hold open on a node; a further one closes their oldest
 * @param perAddress streams one client address may hold open on a node; beyond it new ones get 429 (many
 *        throw-away accounts behind one address cannot take the node's slots; people sharing an address still fit)
 * @param perNode streams a node serves at once; beyond it new streams get 503
 * @param maxDuration how long one stream lasts before the server ends it (the client resumes with Last-Event-ID)
 * @param concurrentReads streams of this node reading the database at once to replay what they missed
 *        ({@code Last-Event-ID}); 10,000 clients reconnecting after a restart would otherwise ask for 10,000
 *        connections at once, time out the pool and starve the timeline requests beside them (announced items
 *        are rendered for many streams at once, see {@code StreamRenders})
 */
@ConfigurationProperties("tributary.api.stream")
@Validated
public record StreamSettings(
        @DefaultValue("30s") Duration heartbeat,
        @DefaultValue("5") @Min(1) int perPerson,
        @DefaultValue("100") @Min(1) int perAddress,
        @DefaultValue("10000") @Min(1) int perNode,
        @DefaultValue("1h") Duration maxDuration,
        @DefaultValue("8") @Min(1) int concurrentReads) {

    public StreamSettings {
        if (heartbeat.isNegative() || heartbeat.isZero()) {
            throw new IllegalArgumentException("tributary.api.stream.heartbeat must be positive, not " + heartbeat);
        }
        if (maxDuration.isNegative() || maxDuration.isZero()) {
            throw new IllegalArgumentException("tributary.api.stream.max-duration must be positive, not " + maxDuration);
        }
    }
}
