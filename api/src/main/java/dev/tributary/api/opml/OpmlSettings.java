package dev.tributary.api.opml;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How an OPML import checks its feeds ({@code tributary.api.opml.*}).
 * @param checkConcurrency feeds fetched at once by one import
 * @param checkBudget how long an import waits for its checks: then it answers, and the feeds whose
 *     check has not ended are registered unchecked (a check under way ends in the background). Short,
 *     so an import of hundreds of feeds answers in about a second; 0 checks none
 */
@ConfigurationProperties("tributary.api.opml")
@Validated
public record OpmlSettings(
        @DefaultValue("8") @Min(1) @Max(64) int checkConcurrency,
        @DefaultValue("500ms") Duration checkBudget) {

    public OpmlSettings {
        if (checkBudget.isNegative()) {
            throw new IllegalArgumentException("tributary.api.opml.check-budget must not be negative, not " + checkBudget);
        }
    }
}
