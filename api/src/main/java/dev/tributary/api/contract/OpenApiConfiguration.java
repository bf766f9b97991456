package dev.tributary.api.contract;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.tributary.api.web.Caller;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.OAuthFlow;
import io.swagger.v3.oas.models.security.OAuthFlows;
import io.swagger.v3.oas.models.security.Scopes;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI 3 document at {@code /v3/api-docs}, made to say what the API does: snake_case
 * field names (springdoc reads models with its own Jackson 2 mapper, which knows nothing of the
 * app's Jackson 3 naming), no {@link Caller} parameter (it comes from the bearer token), the
 * security schemes with their scopes, and problem+json errors.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static {
        // springdoc's way to say "not a request parameter"; its configuration is global by design.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
    }

    /** Replaces springdoc's model resolver (same class) with one naming properties as the API writes them. */
    @Bean
    ModelResolver snakeCaseModelResolver() {
        return new ModelResolver(Json31.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE))
                .openapi31(true);
    }

    /** Ordered last, so that springdoc puts it first in its converter chain, before the resolver above. */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    RecordNullability recordNullability() {
        return new RecordNullability();
    }

    @Bean
    OpenAPI tributaryOpenApi() {
        return new OpenAPI()
                // Relative: the API is wherever the document was fetched from, whatever host and port (and no
                // address of the build machine ends up in docs/openapi.json).
                .servers(List.of(new Server().url("/").description("This server")))
                .info(new Info().title("Tributary API").version("v1").description("""
                        Feed aggregation: people follow feeds, people and groups, and read one merged home \
                        timeline. JSON in snake_case; ids are strings; errors are RFC 9457 problem details. \
                        Every /api response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset."""))
                .components(new Components()
                        .addSecuritySchemes(ApiContract.BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("bearer").description("A personal access token (trb_…) or an OAuth access token;"
                                        + " the 'read' scope for GET, 'write' for the rest, and 'account' (personal tokens only, never"
                                        + " an app) for tokens, authorised apps, the feed token and the password."))
                        .addSecuritySchemes(ApiContract.OAUTH2, new SecurityScheme().type(SecurityScheme.Type.OAUTH2)
                                .flows(new OAuthFlows().authorizationCode(new OAuthFlow()
                                        .authorizationUrl("/oauth2/authorize").tokenUrl("/oauth2/token")
                                        .refreshUrl("/oauth2/token")
                                        .scopes(new Scopes().addString("read", "Read timelines, subscriptions and the account")
                                                .addString("write", "Post, subscribe, mark read and change settings")))))
                        .addSecuritySchemes(ApiContract.BASIC, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                                .scheme("basic").description("The account's username and password (token creation only)."))
                        .addSecuritySchemes(ApiContract.FEED_TOKEN, new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                                .in(SecurityScheme.In.QUERY).name("token")
                                .description("The feed_token made by POST /api/v1/me/feed_token (shown once), for feed readers.")));
    }

    @Bean
    OpenApiCustomizer apiContract() {
        return new ApiContract();
    }
}
