package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Starred items ({@code tributary.stars.*}).
 *
 * @param maxPerPerson stars a person may hold at once; starring past it is refused (the API's 422)
 *        until they unstar some. Stars of tombstoned items count until unstarred.
 */
@ConfigurationProperties("tributary.stars")
@Validated
public record StarSettings(@Min(1) @Max(10_000_000) @DefaultValue("100000") int maxPerPerson) {
}
