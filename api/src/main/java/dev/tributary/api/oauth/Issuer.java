package dev.tributary.api.oauth;

import dev.tributary.crawler.PublicUrlSettings;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContext;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Who issues access tokens: {@code tributary.api.oauth.issuer}, else {@code tributary.public-url},
 * else (a deployment that has not said where it lives) this server's own local address, fixed
 * when it starts listening ({@code http://<server.address or localhost>:<port>}), with a warning.
 * Never the request's {@code Host}: whoever chose it would choose the {@code iss} of the tokens
 * and the endpoints the metadata sends apps to.
 */
@Component
class Issuer implements ApplicationListener<WebServerInitializedEvent> {

    private static final Logger log = LoggerFactory.getLogger(Issuer.class);

    private final @Nullable String configured;
    private final Environment environment;
    private volatile @Nullable String local;

    Issuer(OAuthSettings settings, PublicUrlSettings publicUrl, Environment environment) {
        URI uri = settings.issuer() != null ? settings.issuer() : publicUrl.publicUrl();
        this.configured = uri == null ? null : strip(uri.toString());
        this.environment = environment;
    }

    /** The configured issuer; empty when the local address stands in for it. */
    Optional<String> configured() {
        return Optional.ofNullable(configured);
    }

    /** The issuer that tokens must name. */
    String current() {
        if (configured != null) {
            return configured;
        }
        String fixed = local;
        if (fixed == null) {
            throw new IllegalStateException("no issuer is configured and the server is not listening yet");
        }
        return fixed;
    }

    /** The main server (not the management one) is listening: its address becomes the issuer if none is configured. */
    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (configured != null || event.getApplicationContext().getServerNamespace() != null) {
            return;
        }
        local = strip("http://" + host(environment.getProperty("server.address")) + ":" + event.getWebServer().getPort()
                + environment.getProperty("server.servlet.context-path", ""));
        log.warn("Neither tributary.public-url nor tributary.api.oauth.issuer is set: OAuth tokens and metadata name {}"
                + " as their issuer. Set tributary.public-url to the address apps reach this server at.", local);
    }

    /**
     * Puts {@link #current()} in place of the issuer Spring's authorization server takes from the
     * request when none is configured; runs after Spring's own context filter, inside its scope.
     */
    OncePerRequestFilter contextFilter() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                AuthorizationServerContext context = AuthorizationServerContextHolder.getContext();
                if (configured == null && context != null) {
                    String issuer = current();
                    AuthorizationServerSettings settings = context.getAuthorizationServerSettings();
                    AuthorizationServerContextHolder.setContext(new AuthorizationServerContext() {
                        @Override
                        public String getIssuer() {
                            return issuer;
                        }

                        @Override
                        public AuthorizationServerSettings getAuthorizationServerSettings() {
                            return settings;
                        }
                    });
                }
                chain.doFilter(request, response);
            }
        };
    }

    /** The listening address as a url's host; a wildcard one is reached as localhost. */
    private static String host(@Nullable String address) {
        if (address == null || address.isBlank() || address.equals("0.0.0.0") || address.equals("::")
                || address.equals("[::]")) {
            return "localhost";
        }
        return address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
