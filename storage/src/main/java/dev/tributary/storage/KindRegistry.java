package dev.tributary.storage;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** The kinds this node knows, from every {@link EntityKind} bean; a row of any other kind is unreadable here. */
@Component
final class KindRegistry {

    private final Map<String, EntityKind<?>> byName;

    KindRegistry(ObjectProvider<EntityKind<?>> kinds) {
        Map<String, EntityKind<?>> map = new LinkedHashMap<>();
        kinds.orderedStream().forEach(kind -> {
            EntityKind<?> previous = map.putIfAbsent(kind.name(), kind);
            if (previous != null && !previous.equals(kind)) {
                throw new IllegalStateException("kind '" + kind.name() + "' is declared twice, for "
                        + previous.bodyType().getName() + " and " + kind.bodyType().getName());
            }
        });
        this.byName = Map.copyOf(map);
    }

    Optional<EntityKind<?>> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Writing or reading through an undeclared kind would leave rows no node can read. */
    void require(EntityKind<?> kind, long id) {
        EntityKind<?> known = byName.get(kind.name());
        if (known == null || !known.equals(kind)) {
            throw new UnknownKindException(id, kind.name());
        }
    }
}
