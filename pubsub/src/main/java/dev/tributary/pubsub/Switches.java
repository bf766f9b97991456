package dev.tributary.pubsub;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Which {@link Feature}s are switched off (Twitter's "darkmode"): kept in one Redis hash so that
 * a flip on any node reaches every node, read through a per-node copy refreshed at most every
 * {@code tributary.switches.refresh}, so the check at a feature's entry point costs no round trip.
 * Everything is on unless switched off; if Redis cannot be read the node keeps its last copy
 * (on at start-up), since an outage must not quietly turn features off. Each switch is the gauge
 * {@code tributary.switch{feature=…}}: 1 on, 0 off.
 */
@Component
@EnableConfigurationProperties(SwitchSettings.class)
public class Switches {

    private static final Logger log = LoggerFactory.getLogger(Switches.class);
    static final String KEY = "tributary:switches";
    private static final String OFF = "off";

    private final StringRedisTemplate redis;
    private final long refreshNanos;
    private volatile Snapshot snapshot = new Snapshot(EnumSet.noneOf(Feature.class), Long.MIN_VALUE);

    private record Snapshot(Set<Feature> off, long readAt) {
    }

    Switches(StringRedisTemplate redis, SwitchSettings settings, ObjectProvider<MeterRegistry> registries) {
        this.redis = redis;
        this.refreshNanos = settings.refresh().toNanos();
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        for (Feature feature : Feature.values()) {
            Gauge.builder("tributary.switch", this, s -> s.isOn(feature) ? 1 : 0).tag("feature", feature.wireName())
                    .description("run-time feature switch: 1 on, 0 switched off by an operator").register(registry);
        }
    }

    /** Whether the feature is on (not switched off). */
    public boolean isOn(Feature feature) {
        return !current().off().contains(feature);
    }

    /** @throws FeatureSwitchedOffException if the feature is switched off */
    public void requireOn(Feature feature) {
        if (!isOn(feature)) {
            throw new FeatureSwitchedOffException(feature);
        }
    }

    /** Every switch and whether it is on, in declaration order. */
    public Map<Feature, Boolean> all() {
        Set<Feature> off = current().off();
        Map<Feature, Boolean> all = new EnumMap<>(Feature.class);
        for (Feature feature : Feature.values()) {
            all.put(feature, !off.contains(feature));
        }
        return all;
    }

    /** Switches a feature on or off for every node; this node sees it at once, others within the refresh. */
    public void set(Feature feature, boolean on) {
        if (on) {
            redis.opsForHash().delete(KEY, feature.wireName());
        } else {
            redis.opsForHash().put(KEY, feature.wireName(), OFF);
        }
        log.warn("feature {} switched {}", feature.wireName(), on ? "on" : "off");
        snapshot = read();
    }

    private Snapshot current() {
        Snapshot kept = snapshot;
        if (System.nanoTime() - kept.readAt() < refreshNanos && kept.readAt() != Long.MIN_VALUE) {
            return kept;
        }
        try {
            snapshot = read();
        } catch (DataAccessException e) {
            log.debug("switches not refreshed, keeping the last read: {}", e.getMessage());
            snapshot = new Snapshot(kept.off(), System.nanoTime());
        }
        return snapshot;
    }

    private Snapshot read() {
        Set<Feature> off = EnumSet.noneOf(Feature.class);
        for (Map.Entry<Object, Object> field : redis.opsForHash().entries(KEY).entrySet()) {
            if (OFF.equals(field.getValue())) {
                Feature.of(String.valueOf(field.getKey())).ifPresent(off::add);
            }
        }
        return new Snapshot(off, System.nanoTime());
    }
}
