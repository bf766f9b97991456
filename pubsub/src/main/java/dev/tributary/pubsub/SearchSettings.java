package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Search ({@code tributary.search.*}).
 *
 * @param maxRowsWalked the most index rows of a query's rarest term that one search reads (newest
 *        first): a common word whose items the other words or the filters all exclude would
 *        otherwise walk every row it has. A search cut by it says so ({@link SearchPage#truncated()}).
 */
@ConfigurationProperties("tributary.search")
@Validated
public record SearchSettings(@Min(1) @Max(10_000_000) @DefaultValue("20000") int maxRowsWalked) {
}
