package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.parse.FeedFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every fetch failure and every unreadable body (but one, see below) rejects a subscription with the reason of the same name. */
class RejectionReasonTest {

    @ParameterizedTest
    @EnumSource(FailureReason.class)
    void aFailedFetchKeepsItsReason(FailureReason failure) {
        assertThat(RejectionReason.of(failure).name()).isEqualTo(failure.name());
    }

    @ParameterizedTest
    @EnumSource(value = FeedFormatException.Reason.class, names = "TOO_MANY_NODES", mode = EnumSource.Mode.EXCLUDE)
    void anUnreadableBodyKeepsItsReason(FeedFormatException.Reason format) {
        assertThat(RejectionReason.of(format).name()).isEqualTo(format.name());
    }

    @Test
    void aTreeTooBigToBuildIsTooLargeToSubscribersUntilTheApiNamesItsOwnReason() {
        // The API's wire names are a closed, spelled-out set; the source still records too_many_nodes.
        assertThat(RejectionReason.of(FeedFormatException.Reason.TOO_MANY_NODES)).isEqualTo(RejectionReason.TOO_LARGE);
    }
}
