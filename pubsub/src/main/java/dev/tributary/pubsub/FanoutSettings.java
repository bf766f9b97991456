package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the fan-out workers ({@code tributary.fanout.*}).
 *
 * @param workers worker threads on this node; 0 runs none (the node only publishes)
 * @param batchSize inbox rows per batch (subscribers, divided among the items run together): one
 *        multi-row INSERT and one commit each
 * @param claimSize due tasks a worker looks at per claim; it takes the first and those that run
 *        together with it (the same audience and range: the items of one publish), at most this many
 * @param leaseTtl how long a claimed task stays a worker's without progress; a dead worker's
 *        task is taken over after this (every committed batch renews it)
 * @param pollInterval how often an idle worker looks for tasks published by other nodes
 * @param backfill items a new subscriber of a feed receives at once: of those its latest fetched
 *        document carried, the newest this many that the subscription's media filter takes (a
 *        person's or a group's source gives its newest 20); 0: none
 * @param splitSize subscribers per task: a larger audience is split into tasks of this many
 *        when its first batch runs, so that every worker on every node can share it
 * @param pullThreshold a source followed by at least this many people is pulled: its new items
 *        are read at timeline time instead of fanned out; it goes back to push below 80 % of it;
 *        0 turns pull off (items stored pulled stay pulled)
 * @param maxPulledSources pulled sources a person reads at timeline time at most (one bounded read
 *        each per page); a source they follow past it is pushed to them alone (their pair of
 *        person and source stays pushed until they unfollow it)
 */
@ConfigurationProperties("tributary.fanout")
@Validated
public record FanoutSettings(
        @Min(0) @Max(64) @DefaultValue("2") int workers,
        @Min(1) @Max(10_000) @DefaultValue("1000") int batchSize,
        @Min(1) @Max(100) @DefaultValue("8") int claimSize,
        @NotNull @DefaultValue("30s") Duration leaseTtl,
        @NotNull @DefaultValue("500ms") Duration pollInterval,
        @Min(0) @Max(1000) @DefaultValue("100") int backfill,
        @Min(1) @Max(10_000_000) @DefaultValue("10000") int splitSize,
        @Min(0) @Max(1_000_000_000) @DefaultValue("10000") int pullThreshold,
        @Min(1) @Max(10_000) @DefaultValue("100") int maxPulledSources) {

    /** The node role ({@code tributary.roles}) under which fan-out workers and inbox trimming run. */
    public static final String ROLE = "fanout";

    /** Whether a source of this many subscribers, pulled or not now, is pulled from now on (with hysteresis). */
    public boolean pulls(long subscribers, boolean pulledNow) {
        if (pullThreshold == 0) {
            return false;
        }
        return pulledNow ? subscribers * 5 >= pullThreshold * 4L : subscribers >= pullThreshold;
    }

    public FanoutSettings {
        if (leaseTtl != null && leaseTtl.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("tributary.fanout.lease-ttl must be at least 100ms, not " + leaseTtl);
        }
        if (pollInterval != null && (pollInterval.isNegative() || pollInterval.isZero())) {
            throw new IllegalArgumentException("tributary.fanout.poll-interval must be positive, not " + pollInterval);
        }
    }
}
