package dev.tributary.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Collection;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Decoded entities by id, bounded ({@code tributary.storage.cache-entries}). Never trusted on its
 * own: a read still asks MySQL for each row's {@code updated} and uses a cached entity only if it
 * matches, so a write on any node is seen by the next read on every node.
 */
@Component
final class EntityCache {

    private final Cache<Long, Entity<?>> entities;

    EntityCache(StorageSettings settings) {
        this.entities = Caffeine.newBuilder().maximumSize(settings.cacheEntries()).build();
    }

    Map<Long, Entity<?>> present(Collection<Long> ids) {
        return entities.getAllPresent(ids);
    }

    void put(Entity<?> entity) {
        entities.put(entity.id(), entity);
    }

    void forget(long id) {
        entities.invalidate(id);
    }
}
