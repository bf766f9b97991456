package dev.tributary.storage;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the storage module ({@code tributary.storage.*}).
 *
 * @param nodeId fixed id-generator node (0..1023); unset = lease one from {@code id_nodes}
 * @param nodeLeaseTtl how long a node lease lasts without renewal (renewed every third of it)
 * @param backfillBatchSize entities per back-fill transaction
 * @param backfillOnStartup back-fill registered indexes that are not ready in the background at start-up
 * @param compressionThreshold JSON bodies shorter than this many bytes are stored uncompressed
 * @param maxBodyBytes largest JSON body accepted (and inflated when read)
 * @param cleaner the index cleaner's schedule
 * @param cacheEntries decoded entities kept for {@link EntityStore#getAllCached} (0: no cache)
 */
@ConfigurationProperties("tributary.storage")
@Validated
public record StorageSettings(
        @Nullable @Min(0) @Max(1023) Integer nodeId,
        @NotNull @DefaultValue("60s") Duration nodeLeaseTtl,
        @Min(1) @Max(10_000) @DefaultValue("500") int backfillBatchSize,
        @DefaultValue("true") boolean backfillOnStartup,
        @Min(0) @DefaultValue("256") int compressionThreshold,
        // MEDIUMBLOB holds 16 MiB; the deflated body is never larger than the JSON plus a few bytes.
        @Min(1024) @Max(15_000_000) @DefaultValue("1048576") int maxBodyBytes,
        @Valid @NotNull @DefaultValue Cleaner cleaner,
        @Min(0) @Max(10_000_000) @DefaultValue("20000") int cacheEntries,
        @NotNull @DefaultValue("200ms") Duration deferredIndexInterval) {

    public StorageSettings {
        if (deferredIndexInterval != null && (deferredIndexInterval.isZero() || deferredIndexInterval.isNegative())) {
            throw new IllegalArgumentException("tributary.storage.deferred-index-interval must be positive, not " + deferredIndexInterval);
        }
        if (nodeLeaseTtl != null && nodeLeaseTtl.compareTo(Duration.ofSeconds(3)) < 0) {
            throw new IllegalArgumentException("tributary.storage.node-lease-ttl must be at least 3s, not " + nodeLeaseTtl);
        }
    }

    /**
     * @param enabled run the cleaner on a schedule (it can always be run directly)
     * @param interval delay between the end of one pass and the start of the next
     * @param batchSize entities per cleaner transaction
     */
    public record Cleaner(
            @DefaultValue("true") boolean enabled,
            @NotNull @DefaultValue("10m") Duration interval,
            @Min(1) @Max(10_000) @DefaultValue("200") int batchSize) {

        public Cleaner {
            if (interval != null && (interval.isZero() || interval.isNegative())) {
                throw new IllegalArgumentException("tributary.storage.cleaner.interval must be positive, not " + interval);
            }
        }
    }

    /** The defaults, for code that builds the store outside Spring (tests of pure logic). */
    static StorageSettings defaults() {
        return new StorageSettings(null, Duration.ofSeconds(60), 500, true, 256, 1_048_576,
                new Cleaner(true, Duration.ofMinutes(10), 200), 20_000, Duration.ofMillis(200));
    }
}
