package dev.tributary.storage.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

class ExternalDatabaseCheckTest {

    @Test
    void anUnreachableDatabaseFailsWithTheUrlAndTheCauseInOneLine() {
        int closedPort = LoopbackPorts.free();
        String url = "jdbc:mysql://127.0.0.1:" + closedPort + "/tributary?sslMode=DISABLED";
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", url);

        assertThatThrownBy(() -> ExternalDatabaseCheck.verify(environment))
                .isInstanceOf(DatabaseUnreachableException.class)
                .hasMessageStartingWith("Cannot reach the database at " + url + ": ")
                .hasMessageContaining("Connection refused")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aMalformedUrlIsReportedTheSameWayNotAsAStackTraceLater() {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", "not a jdbc url");

        assertThatThrownBy(() -> ExternalDatabaseCheck.verify(environment))
                .isInstanceOf(DatabaseUnreachableException.class)
                .hasMessageStartingWith("Cannot reach the database at not a jdbc url: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void passwordsInTheUrlAreNotRepeatedInTheMessage() {
        assertThat(ExternalDatabaseCheck.redact("jdbc:mysql://db:3306/t?user=app&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:mysql://db:3306/t?user=app&password=***&ssl=true");
        assertThat(ExternalDatabaseCheck.redact("jdbc:mysql://app:s3cret@db:3306/t"))
                .isEqualTo("jdbc:mysql://app:***@db:3306/t");
    }

    @Test
    void theFailureAnalyzerReportsTheOneLineMessage() {
        var exception = new DatabaseUnreachableException("jdbc:mysql://db/t", new RuntimeException("refused"));
        var analysis = new DatabaseUnreachableFailureAnalyzer().analyze(new IllegalStateException(exception));
        assertThat(analysis.getDescription()).isEqualTo("Cannot reach the database at jdbc:mysql://db/t: refused");
        assertThat(analysis.getAction()).contains("spring.datasource.url");
    }
}
