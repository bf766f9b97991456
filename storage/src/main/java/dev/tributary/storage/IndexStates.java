package dev.tributary.storage;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The SQL of entity_indexes: each index's state and back-fill progress. (A plain @Component, as
 * are the other SQL classes: JdbcClient already translates SQLExceptions, and @Repository's
 * translation proxy cannot subclass a final class.)
 */
@Component
final class IndexStates {

    static final String BACKFILLING = "backfilling";
    static final String READY = "ready";

    record State(String name, String state, String signature, long cursor, @Nullable Long highWater) {
        boolean ready() {
            return READY.equals(state);
        }
    }

    private final JdbcClient jdbc;
    /** An index never leaves "ready", so once seen ready it need not be read again. */
    private final Set<String> knownReady = ConcurrentHashMap.newKeySet();

    IndexStates(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the index as back-filling unless it is known already; returns its state. */
    State register(IndexDefinition<?> index) {
        jdbc.sql("""
                INSERT IGNORE INTO entity_indexes
                    (name, kind, table_name, definition, state, backfill_cursor, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'backfilling', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))
                """)
                .params(index.name(), index.kind().name(), index.table(), index.signature())
                .update();
        State state = find(index.name()).orElseThrow();
        if (!state.signature().equals(index.signature())) {
            throw new IllegalStateException("index '" + index.name() + "' was created as [" + state.signature()
                    + "] but is now declared as [" + index.signature() + "]: give a changed index a new name");
        }
        return state;
    }

    Optional<State> find(String name) {
        return jdbc.sql("""
                SELECT name, state, definition, backfill_cursor, backfill_high_water
                FROM entity_indexes WHERE name = ?
                """)
                .param(name)
                .query((rs, n) -> new State(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                        rs.getObject(5, Long.class)))
                .optional();
    }

    void requireReady(IndexDefinition<?> index) {
        if (knownReady.contains(index.name())) {
            return;
        }
        String state = find(index.name()).map(State::state).orElse("not registered");
        if (!READY.equals(state)) {
            throw new IndexNotReadyException(index.name(), state);
        }
        knownReady.add(index.name());
    }

    /** Fixes the back-fill's upper bound once; a resumed back-fill keeps the first one. */
    long highWater(String name, long proposed) {
        jdbc.sql("""
                UPDATE entity_indexes SET backfill_high_water = ?, updated_at = UTC_TIMESTAMP(6)
                WHERE name = ? AND backfill_high_water IS NULL
                """)
                .params(proposed, name)
                .update();
        return find(name).map(State::highWater).orElseThrow();
    }

    /** GREATEST: two nodes back-filling the same index must never move the cursor backwards. */
    void advance(String name, long cursor) {
        jdbc.sql("""
                UPDATE entity_indexes SET backfill_cursor = GREATEST(backfill_cursor, ?), updated_at = UTC_TIMESTAMP(6)
                WHERE name = ?
                """)
                .params(cursor, name)
                .update();
    }

    void markReady(String name) {
        jdbc.sql("""
                UPDATE entity_indexes SET state = 'ready', ready_at = UTC_TIMESTAMP(6), updated_at = UTC_TIMESTAMP(6)
                WHERE name = ? AND state = 'backfilling'
                """)
                .param(name)
                .update();
        knownReady.add(name);
    }
}
