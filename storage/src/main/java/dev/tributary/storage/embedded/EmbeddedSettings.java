package dev.tributary.storage.embedded;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.util.unit.DataSize;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the embedded MariaDB and Redis that run when no external ones are configured.
 *
 * @param dataDir where MariaDB keeps its files; survives restarts unless {@code ephemeral}
 * @param ephemeral wipe the data directory at start and stop (tests), and relax durability
 * @param startTimeout how long MariaDB may take to answer after launch
 * @param database the schema created and used in the embedded server
 * @param redis which embedded Redis to run: one server, or a Redis Cluster of three masters (tests, trials)
 * @param bufferPool InnoDB's buffer pool, MariaDB's own default; a large corpus (a benchmark's
 *     hundred million index rows) needs gigabytes, as any production MySQL would have
 * @param supervisePeriod how often the embedded servers are checked and, when one has died, started again
 */
@Validated
@ConfigurationProperties("tributary.embedded")
public record EmbeddedSettings(
        @NotNull @DefaultValue("./data") Path dataDir,
        @DefaultValue("false") boolean ephemeral,
        @NotNull @DefaultValue("120s") Duration startTimeout,
        @NotNull @DefaultValue("tributary") String database,
        @NotNull @DefaultValue("single") RedisKind redis,
        @NotNull @DefaultValue("128MB") DataSize bufferPool,
        @NotNull @DefaultValue("2s") Duration supervisePeriod) {

    /** The embedded Redis's shape: what {@code spring.data.redis.url} or {@code spring.data.redis.cluster.nodes} points at. */
    public enum RedisKind { SINGLE, CLUSTER }
}
