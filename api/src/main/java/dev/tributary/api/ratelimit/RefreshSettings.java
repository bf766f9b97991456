package dev.tributary.api.ratelimit;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * "Refresh now" of a feed ({@code tributary.api.refresh.*}).
 *
 * @param perPersonPerMinute refreshes one person may ask for a minute, whatever feeds (each is
 *        also bound by the crawler's politeness: {@code tributary.crawler.min-interval})
 */
@ConfigurationProperties("tributary.api.refresh")
@Validated
public record RefreshSettings(@Min(1) @Max(10_000) @DefaultValue("10") int perPersonPerMinute) {
}
