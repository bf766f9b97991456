package dev.tributary.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The indexes this node maintains: every {@link IndexDefinition} bean, plus any registered at run
 * time by a back-fill. Writers read it on every write, so it is an immutable map swapped whole.
 */
@Component
final class IndexRegistry {

    private final KindRegistry kinds;
    private volatile Map<String, IndexDefinition<?>> byName = Map.of();

    IndexRegistry(ObjectProvider<IndexDefinition<?>> definitions, KindRegistry kinds) {
        this.kinds = kinds;
        definitions.orderedStream().forEach(this::register);
    }

    /** Adds {@code index} (once); from now on every write of its kind maintains it. */
    synchronized void register(IndexDefinition<?> index) {
        IndexDefinition<?> existing = byName.get(index.name());
        if (existing != null) {
            if (existing != index && !existing.signature().equals(index.signature())) {
                throw new IllegalStateException("two different index definitions are named '" + index.name() + "'");
            }
            return;
        }
        kinds.require(index.kind(), 0);
        for (IndexDefinition<?> other : byName.values()) {
            if (other.table().equals(index.table())) {
                throw new IllegalStateException("indexes '" + other.name() + "' and '" + index.name()
                        + "' share table " + index.table());
            }
        }
        Map<String, IndexDefinition<?>> copy = new LinkedHashMap<>(byName);
        copy.put(index.name(), index);
        byName = Map.copyOf(copy);
    }

    boolean isRegistered(IndexDefinition<?> index) {
        return byName.get(index.name()) == index;
    }

    List<IndexDefinition<?>> all() {
        return List.copyOf(byName.values());
    }

    @SuppressWarnings("unchecked")
    <T> List<IndexDefinition<T>> forKind(EntityKind<T> kind) {
        List<IndexDefinition<T>> result = new ArrayList<>();
        for (IndexDefinition<?> index : byName.values()) {
            if (index.kind().equals(kind)) {
                result.add((IndexDefinition<T>) index);
            }
        }
        return result;
    }

    Set<String> indexedKinds() {
        Set<String> names = new java.util.TreeSet<>();
        byName.values().forEach(index -> names.add(index.kind().name()));
        return names;
    }
}
