package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.fetch.FailureReason;
import dev.tributary.crawler.parse.FeedFormatException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every fetch failure and every unreadable body rejects a subscription with the reason of the same name. */
class RejectionReasonTest {

    @ParameterizedTest
    @EnumSource(FailureReason.class)
    void aFailedFetchKeepsItsReason(FailureReason failure) {
        assertThat(RejectionReason.of(failure).name()).isEqualTo(failure.name());
    }

    @ParameterizedTest
    @EnumSource(FeedFormatException.Reason.class)
    void anUnreadableBodyKeepsItsReason(FeedFormatException.Reason format) {
        assertThat(RejectionReason.of(format).name()).isEqualTo(format.name());
    }
}
