package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

/** MySQL's refusals that pass with time, as Spring's translator hands them on, are told from the statement's own errors. */
class MySqlFailuresTest {

    private final SQLErrorCodeSQLExceptionTranslator translator = new SQLErrorCodeSQLExceptionTranslator("MySQL");

    /** As {@code JdbcTemplate} hands it on: the translator's answer, or an uncategorized exception where it has none. */
    private DataAccessException translated(String message, String state, int code) {
        SQLException refused = new SQLException(message, state, code);
        DataAccessException translated = translator.translate("statement", "UPDATE inbox SET is_read = TRUE", refused);
        return translated != null ? translated : new UncategorizedSQLException("statement", "UPDATE inbox SET is_read = TRUE", refused);
    }

    @Test
    void aReadOnlyPrimaryIsARefusalForNowThatSpringDoesNotCallOne() {
        DataAccessException readOnly = translated(
                "The MariaDB server is running with the --read-only option so it cannot execute this statement", "HY000", 1290);

        // Why the test exists: Spring makes it neither a resource failure nor a transient one.
        assertThat(readOnly).isNotInstanceOf(DataAccessResourceFailureException.class).isNotInstanceOf(TransientDataAccessException.class);
        assertThat(MySqlFailures.isRefusedForNow(readOnly)).isTrue();
    }

    @Test
    void aFullDiskATimeLimitAndAShutdownAreToo() {
        assertThat(MySqlFailures.isRefusedForNow(translated("The table 'inbox' is full", "HY000", 1114))).isTrue();
        assertThat(MySqlFailures.isRefusedForNow(translated("Query execution was interrupted (max_statement_time exceeded)", "70100", 1969)))
                .isTrue();
        assertThat(MySqlFailures.isRefusedForNow(translated("Server shutdown in progress", "08S01", 1053))).isTrue();
    }

    @Test
    void theStatementsOwnErrorsAreNot() {
        assertThat(MySqlFailures.isRefusedForNow(translated("Duplicate entry '1-2' for key 'PRIMARY'", "23000", 1062))).isFalse();
        assertThat(MySqlFailures.isRefusedForNow(translated("You have an error in your SQL syntax", "42000", 1064))).isFalse();
        assertThat(MySqlFailures.isRefusedForNow(new IllegalStateException("1290"))).isFalse();
    }
}
