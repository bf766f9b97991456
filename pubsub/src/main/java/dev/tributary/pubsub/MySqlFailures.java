package dev.tributary.pubsub;

import java.sql.SQLException;
import java.util.Set;

/**
 * Tells MySQL's refusals that pass with time (a primary turned read-only by a failover, a full
 * disk, a server shutting down, a statement over the server's time limit) from errors of the
 * statement itself. Spring translates most of them to {@code UncategorizedSQLException}, the type
 * of a bug, so without this a failover would answer 500 instead of 503.
 */
public final class MySqlFailures {

    /**
     * The server error codes: 1290 the server runs read-only, 1836 MySQL's super-read-only mode,
     * 1114 a table full, 1021 a disk full, 1053 a server shutting
     * down, 1927 a connection killed (MariaDB), 1317 a query interrupted, 1969 MariaDB's
     * {@code max_statement_time} and 3024 MySQL's {@code max_execution_time} exceeded, 1040 and
     * 1203 too many connections.
     */
    private static final Set<Integer> NOT_NOW = Set.of(1290, 1836, 1114, 1021, 1053, 1927, 1317, 1969, 3024, 1040, 1203);
    /** A chain of causes may loop. */
    private static final int MAX_DEPTH = 32;

    private MySqlFailures() {
    }

    /** Whether MySQL refused {@code failure}'s statement for now (see {@link #NOT_NOW}), found through the causes. */
    public static boolean isRefusedForNow(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
            if (cause instanceof SQLException refused && NOT_NOW.contains(refused.getErrorCode())) {
                return true;
            }
        }
        return false;
    }
}
