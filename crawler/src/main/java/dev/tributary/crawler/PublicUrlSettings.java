package dev.tributary.crawler;

import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where the outside world reaches this deployment ({@code tributary.public-url}); unset, nothing
 * that needs a callback (WebSub) is offered.
 */
@ConfigurationProperties("tributary")
@Validated
public record PublicUrlSettings(@Nullable URI publicUrl) {

    public PublicUrlSettings {
        if (publicUrl != null) {
            String scheme = publicUrl.getScheme();
            if (!publicUrl.isAbsolute() || publicUrl.getHost() == null
                    || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
                    || publicUrl.getRawQuery() != null || publicUrl.getRawFragment() != null) {
                throw new IllegalArgumentException("tributary.public-url must be an absolute http(s) url without query"
                        + " or fragment, not " + publicUrl);
            }
        }
    }

    /** {@code path} (starting with '/') under the public url. */
    public URI resolve(String path) {
        if (publicUrl == null) {
            throw new IllegalStateException("tributary.public-url is not set");
        }
        String base = publicUrl.toString();
        return URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) + path : base + path);
    }
}
