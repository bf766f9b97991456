package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.RejectionReason;
import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.parse.FeedFormatException;
import java.net.URI;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.ProblemDetail;

/** A refused url is a 422 {@code feed-rejected} whose {@code reason} keeps the key clients have always seen. */
class FeedRejectionsTest {

    @ParameterizedTest
    @EnumSource(RejectionReason.class)
    void everyReasonIsA422NamingItsStableKey(RejectionReason reason) {
        ProblemDetail problem = FeedRejections.problem(reason, "why, in words").getBody();

        assertThat(problem.getStatus()).isEqualTo(422);
        assertThat(problem.getType()).isEqualTo(URI.create("urn:tributary:problem:feed-rejected"));
        assertThat(problem.getDetail()).isEqualTo("why, in words");
        assertThat(problem.getProperties()).containsEntry("reason", keyBefore(reason));
    }

    /** The key the crawler's reasons had on the wire before the API named them itself. */
    private static String keyBefore(RejectionReason reason) {
        boolean fetch = Arrays.stream(FailureReason.values()).anyMatch(f -> f.name().equals(reason.name()));
        return fetch ? FailureReason.valueOf(reason.name()).key() : FeedFormatException.Reason.valueOf(reason.name()).key();
    }
}
