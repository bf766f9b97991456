package dev.tributary.storage.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an unreachable database at start-up into one line with the URL and the cause, not a stack trace. */
public class DatabaseUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<DatabaseUnreachableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DatabaseUnreachableException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Start MySQL/MariaDB at that address, or correct spring.datasource.url (SPRING_DATASOURCE_URL), "
                        + "or unset it to run the embedded MariaDB.",
                cause);
    }
}
