package dev.tributary.api.oauth;

import dev.tributary.crawler.PublicUrlSettings;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.security.web.util.UrlUtils;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Who issues access tokens: {@code tributary.api.oauth.issuer}, else {@code tributary.public-url},
 * else (a deployment that has not said where it lives) the origin each request came to, which
 * is what the authorization server itself then puts in tokens and metadata.
 */
@Component
class Issuer {

    private final @Nullable String configured;

    Issuer(OAuthSettings settings, PublicUrlSettings publicUrl) {
        URI uri = settings.issuer() != null ? settings.issuer() : publicUrl.publicUrl();
        this.configured = uri == null ? null : strip(uri.toString());
    }

    /** The configured issuer; empty when it follows the request. */
    Optional<String> configured() {
        return Optional.ofNullable(configured);
    }

    /** The issuer that tokens presented with the current request must name. */
    String current() {
        if (configured != null) {
            return configured;
        }
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            throw new IllegalStateException("no issuer is configured and there is no current request");
        }
        HttpServletRequest request = attributes.getRequest();
        // As the authorization server derives it (AuthorizationServerContextFilter), so the two agree.
        return UriComponentsBuilder.fromUriString(UrlUtils.buildFullRequestUrl(request))
                .replacePath(request.getContextPath()).replaceQuery(null).fragment(null).build().toUriString();
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
