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
 * @param checkBudget time after which an import stops starting fetches and registers the rest unchecked
 */
@ConfigurationProperties("tributary.api.opml")
@Validated
public record OpmlSettings(
        @DefaultValue("8") @Min(1) @Max(64) int checkConcurrency,
        @DefaultValue("20s") Duration checkBudget) {

    public OpmlSettings {
        if (checkBudget.isNegative()) {
            throw new IllegalArgumentException("tributary.api.opml.check-budget must not be negative, not " + checkBudget);
        }
    }
}
