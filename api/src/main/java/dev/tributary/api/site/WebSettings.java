package dev.tributary.api.site;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the web front end ({@code tributary.web.*}).
 *
 * @param sessionTimeout how long a browser session may sit idle before it signs out
 * @param sessionCookie the session cookie's name
 */
@Validated
@ConfigurationProperties("tributary.web")
public record WebSettings(
        @DefaultValue("14d") Duration sessionTimeout,
        @DefaultValue("TRIBUTARY_SESSION") @NotBlank @Pattern(regexp = "[A-Za-z0-9_-]{1,64}") String sessionCookie) {

    public WebSettings {
        if (sessionTimeout.isNegative() || sessionTimeout.isZero()) {
            throw new IllegalArgumentException("tributary.web.session-timeout must be positive");
        }
    }
}
