package dev.tributary.storage;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Wires the storage module; found by component scan of {@code dev.tributary.storage}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({StorageSettings.class, NodeRoles.class})
public class StorageConfiguration {

    @Bean
    BodyCodec storageBodyCodec(StorageSettings settings) {
        return new BodyCodec(settings);
    }

    @Bean
    NodeLease storageNodeLease(JdbcClient jdbc, Transactions tx, StorageTasks tasks, StorageSettings settings) {
        return new NodeLease(jdbc, tx, tasks, settings.nodeLeaseTtl());
    }

    /** A configured node id wins; otherwise the node id is leased on first use. */
    @Bean
    IdGenerator storageIdGenerator(StorageSettings settings, NodeLease lease) {
        NodeSlot slot = settings.nodeId() != null ? NodeSlot.fixed(settings.nodeId()) : lease;
        return new IdGenerator(slot, System::currentTimeMillis);
    }
}
