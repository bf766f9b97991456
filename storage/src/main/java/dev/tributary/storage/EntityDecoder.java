package dev.tributary.storage;

import org.springframework.stereotype.Component;

/** Turns entity rows into typed entities, checking the row's kind against the one asked for. */
@Component
final class EntityDecoder {

    private final KindRegistry kinds;
    private final BodyCodec codec;

    EntityDecoder(KindRegistry kinds, BodyCodec codec) {
        this.kinds = kinds;
        this.codec = codec;
    }

    /** The row as an entity of {@code expected}; an unregistered or different kind is an error. */
    <T> Entity<T> decode(EntityKind<T> expected, EntityRows.Row row) {
        if (!row.kind().equals(expected.name())) {
            if (kinds.byName(row.kind()).isEmpty()) {
                throw new UnknownKindException(row.id(), row.kind());
            }
            throw new WrongKindException(row.id(), expected.name(), row.kind());
        }
        return new Entity<>(row.id(), expected, row.updated(), codec.decode(row.id(), row.body(), expected.bodyType()));
    }

    /** The row as an entity of whatever registered kind it has; null for an unregistered kind. */
    Entity<?> decodeAny(EntityRows.Row row) {
        return kinds.byName(row.kind()).map(kind -> decode(kind, row)).orElse(null);
    }
}
