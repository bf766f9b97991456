package dev.tributary.api.contract;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Completes the generated document with what annotations cannot say: only the client-facing
 * paths, each operation's security (open, HTTP Basic, the feed token, or bearer/OAuth with the
 * scope Spring Security demands for its method), JSON as the response type, and the
 * problem+json responses every operation can give.
 */
class ApiContract implements OpenApiCustomizer {

    static final String BEARER = "bearer";
    static final String OAUTH2 = "oauth2";
    static final String BASIC = "basic";
    static final String FEED_TOKEN = "feed_token";

    private static final String PROBLEM_JSON = "application/problem+json";
    /** The ways in that need no token (ApiSecurityConfiguration permits them). */
    private static final Set<String> OPEN = Set.of("POST /api/v1/accounts", "POST /api/v1/apps");
    private static final String BASIC_LOGIN = "POST /api/v1/tokens";

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getPaths() == null) {
            return;
        }
        // The WebSub callback and other site paths are for hubs and browsers, not API clients.
        openApi.getPaths().keySet().removeIf(path -> !path.startsWith("/api/") && !path.startsWith("/feeds/"));
        addProblemComponents(openApi);
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            String security = security(method, path, operation);
            jsonResponses(operation);
            problems(path, operation, security);
        }));
    }

    /** Sets the operation's security requirement; returns which scheme it needs (null: none). */
    private static String security(PathItem.HttpMethod method, String path, Operation operation) {
        String key = method + " " + path;
        if (OPEN.contains(key) || path.startsWith("/feeds/users/")) {
            operation.setSecurity(List.of());
            return null;
        }
        if (key.equals(BASIC_LOGIN)) {
            operation.setSecurity(List.of(new SecurityRequirement().addList(BASIC)));
            return BASIC;
        }
        if (path.startsWith("/feeds/")) {
            operation.setSecurity(List.of(new SecurityRequirement().addList(FEED_TOKEN)));
            return FEED_TOKEN;
        }
        String scope = method == PathItem.HttpMethod.GET || method == PathItem.HttpMethod.HEAD ? "read" : "write";
        operation.setSecurity(List.of(new SecurityRequirement().addList(BEARER, scope),
                new SecurityRequirement().addList(OAUTH2, scope)));
        return BEARER;
    }

    /** springdoc says {@code *}/{@code *} where a controller declares no produces; the API answers JSON. */
    private static void jsonResponses(Operation operation) {
        if (operation.getResponses() == null) {
            return;
        }
        operation.getResponses().values().forEach(response -> {
            Content content = response.getContent();
            if (content != null && content.containsKey("*/*")) {
                MediaType any = content.remove("*/*");
                content.addMediaType("application/json", any);
            }
        });
    }

    private static void problems(String path, Operation operation, String security) {
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        operation.setResponses(responses);
        boolean api = path.startsWith("/api/");
        if (api) {
            add(responses, "400", "BadRequest");
        }
        if (BEARER.equals(security) || BASIC.equals(security)) {
            add(responses, "401", "Unauthorized");
        }
        if (BEARER.equals(security)) {
            add(responses, "403", "Forbidden");
        }
        if (path.contains("{") || FEED_TOKEN.equals(security) || path.startsWith("/feeds/")) {
            add(responses, "404", "NotFound");
        }
        if (operation.getRequestBody() != null) {
            add(responses, "413", "TooLarge");
            add(responses, "415", "UnsupportedMediaType");
        }
        if (api) {
            add(responses, "429", "TooManyRequests");
        }
    }

    private static void add(ApiResponses responses, String status, String component) {
        if (!responses.containsKey(status)) {
            responses.addApiResponse(status, new ApiResponse().$ref("#/components/responses/" + component));
        }
    }

    private static void addProblemComponents(OpenAPI openApi) {
        Schema<?> fieldError = new ObjectSchema()
                .addProperty("field", new StringSchema().description("The field, in snake_case; 'body' for the body as a whole"))
                .addProperty("message", new StringSchema());
        Schema<?> problem = new ObjectSchema()
                .description("RFC 9457 problem details")
                .addProperty("type", new StringSchema().format("uri").example("urn:tributary:problem:invalid"))
                .addProperty("title", new StringSchema())
                .addProperty("status", new IntegerSchema())
                .addProperty("detail", new StringSchema())
                .addProperty("instance", new StringSchema().format("uri"))
                .addProperty("errors", new ArraySchema().items(new Schema<>().$ref("#/components/schemas/FieldError")))
                .addProperty("reason", new StringSchema().description("A stable key of why (422 only)"));
        problem.setRequired(List.of("type", "title", "status"));
        openApi.getComponents().addSchemas("FieldError", fieldError).addSchemas("Problem", problem);
        Map<String, String> descriptions = new LinkedHashMap<>();
        descriptions.put("BadRequest", "Malformed JSON, a field of the wrong type or value, an unknown field (listed in errors)");
        descriptions.put("Unauthorized", "No valid credentials");
        descriptions.put("Forbidden", "The token lacks the scope, or the caller may not do this");
        descriptions.put("NotFound", "No such thing, or not the caller's to see");
        descriptions.put("TooLarge", "The body is larger than the limit (2 MB by default)");
        descriptions.put("UnsupportedMediaType", "The body is not of a content type this operation reads");
        descriptions.put("TooManyRequests", "Over the rate limit; Retry-After says when to try again");
        descriptions.forEach((name, description) -> {
            ApiResponse response = new ApiResponse().description(description).content(new Content().addMediaType(PROBLEM_JSON,
                    new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem"))));
            if (name.equals("TooManyRequests")) {
                response.addHeaderObject("Retry-After", new Header().description("Seconds to wait").schema(new IntegerSchema()));
            }
            openApi.getComponents().addResponses(name, response);
        });
    }
}
