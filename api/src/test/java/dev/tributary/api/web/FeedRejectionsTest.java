package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.RejectionReason;
import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.parse.FeedFormatException;
import java.net.URI;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
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
        if (reason == RejectionReason.BLOCKED_ADDRESS || reason == RejectionReason.DNS) {
            assertThat(problem.getDetail()).doesNotContain("why, in words").contains("could not be reached");
            assertThat(problem.getProperties()).containsEntry("reason", "unreachable");
        } else {
            assertThat(problem.getDetail()).as("the crawler's words as a sentence").isEqualTo("Why, in words.");
            assertThat(problem.getProperties()).containsEntry("reason", keyBefore(reason));
        }
    }

    @Test
    void aNameThatResolvesInternallyIsAnsweredLikeOneThatDoesNotResolve() {
        ProblemDetail internal = FeedRejections.problem(RejectionReason.BLOCKED_ADDRESS,
                "refused: the host resolves to a non-public address (10.1.2.3)").getBody();
        ProblemDetail missing = FeedRejections.problem(RejectionReason.DNS, "intranet.example: no such host").getBody();

        assertThat(internal.getDetail()).isEqualTo(missing.getDetail()).doesNotContain("10.1.2.3").doesNotContain("non-public");
        assertThat(internal.getProperties()).isEqualTo(missing.getProperties());
    }

    /**
     * The key the crawler's reasons had on the wire before the API named them itself; the full
     * articles' own refusals came after, named like the rest.
     */
    private static String keyBefore(RejectionReason reason) {
        if (reason == RejectionReason.NOT_HTML || reason == RejectionReason.NO_ARTICLE) {
            return reason.name().toLowerCase(java.util.Locale.ROOT);
        }
        boolean fetch = Arrays.stream(FailureReason.values()).anyMatch(f -> f.name().equals(reason.name()));
        return fetch ? FailureReason.valueOf(reason.name()).key() : FeedFormatException.Reason.valueOf(reason.name()).key();
    }

    @Test
    void everyRefusalReadsAsASentence() {
        assertThat(FeedRejections.sentence("no feed found at this address: An HTML page, not a feed."))
                .isEqualTo("No feed found at this address: An HTML page, not a feed.");
        assertThat(FeedRejections.sentence("timed out after 30 s")).isEqualTo("Timed out after 30 s.");
        assertThat(FeedRejections.sentence("Already one?")).isEqualTo("Already one?");
    }
}
