package dev.tributary.api.contract;

import dev.tributary.api.oauth.ClientAuthMethods;
import dev.tributary.api.security.AccountEndpoints;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.NonBlank;
import dev.tributary.api.web.Scope;
import dev.tributary.pubsub.SearchText;
import dev.tributary.pubsub.SourceKind;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Completes the generated document with what annotations cannot say: only the client-facing
 * paths, each operation's security (open, HTTP Basic, the feed token, or bearer/OAuth with the
 * scope Spring Security demands for its method), JSON as the response type (text/x-opml and
 * text/event-stream where those are the answer), the problem+json responses every operation can
 * give, tags by feature, operation ids without springdoc's numbering, and the links between operations.
 */
class ApiContract implements OpenApiCustomizer {

    static final String BEARER = "bearer";
    static final String OAUTH2 = "oauth2";
    static final String BASIC = "basic";
    static final String FEED_TOKEN = "feed_token";

    private static final String PROBLEM_JSON = "application/problem+json";
    /** The ways in that need no token (ApiSecurityConfiguration permits them). */
    /** The WebSub hub of the exports: documented for subscribers, though not under /api. */
    private static final String HUB = dev.tributary.api.export.FeedTopics.HUB_PATH;
    private static final Set<String> OPEN = Set.of("POST /api/v1/accounts", "POST /api/v1/apps", "POST " + HUB);
    private static final String BASIC_LOGIN = "POST /api/v1/tokens";
    private static final Pattern NUMBERED = Pattern.compile(".+_[0-9]+");
    private static final Pattern SCHEMA_REFERENCE = Pattern.compile("\"#/components/schemas/([^\"]+)\"");
    private static final String ID_PATTERN = Ids.PATTERN;
    /** A source's crawl status as SourceViews words it. */
    private static final List<String> SOURCE_STATUSES = List.of("ok", "error", "gone");
    private static final Map<String, List<String>> STATUSES = Map.ofEntries(
            Map.entry("POST /api/v1/subscriptions", List.of("201", "422")),
            Map.entry("PATCH /api/v1/subscriptions/{id}", List.of("422")),
            Map.entry("POST /api/v1/subscriptions/{id}/refresh", List.of("409")),
            Map.entry("POST /api/v1/accounts", List.of("409")),
            Map.entry("GET /api/v1/me/xmpp", List.of("404")),
            Map.entry("POST /api/v1/me/xmpp", List.of("404", "409")),
            Map.entry("DELETE /api/v1/me/xmpp", List.of("404")),
            Map.entry("POST /api/v1/me/xmpp/confirm", List.of("404", "409", "422")),
            Map.entry("PUT /api/v1/me/xmpp/delivery", List.of("404")),
            Map.entry("POST /api/v1/me/feeds", List.of("201", "422")),
            Map.entry("POST /api/v1/groups/{id}/members", List.of("201", "202", "422")),
            Map.entry("POST /api/v1/groups", List.of("422")),
            Map.entry("POST /api/v1/tokens", List.of("422")),
            Map.entry("POST /api/v1/invitations/{id}/accept", List.of("422")),
            Map.entry("DELETE /api/v1/groups/{id}/members/{username}", List.of("409")),
            Map.entry("POST /api/v1/folders", List.of("409", "422")),
            Map.entry("PATCH /api/v1/folders/{id}", List.of("409", "422")),
            Map.entry("POST /api/v1/items/{id}/star", List.of("422")),
            Map.entry("POST /api/v1/rules", List.of("422")),
            Map.entry("GET /api/v1/items/{id}/content", List.of("422")),
            Map.entry("GET /api/v1/timelines/home", List.of("304", "404")),
            Map.entry("POST /api/v1/markers", List.of("404")),
            Map.entry("GET /api/v1/search", List.of("404")),
            Map.entry("GET /feeds/home.rss", List.of("304")),
            Map.entry("GET /feeds/home.atom", List.of("304")),
            Map.entry("GET /feeds/users/{username}.rss", List.of("304")),
            Map.entry("GET /feeds/users/{username}.atom", List.of("304")),
            Map.entry("GET /feeds/groups/{id}.rss", List.of("304")),
            Map.entry("GET /feeds/groups/{id}.atom", List.of("304")),
            Map.entry("POST " + HUB, List.of("422")));

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getPaths() == null) {
            return;
        }
        // The WebSub callback and other site paths are for hubs and browsers, not API clients; the hub is for subscribers.
        openApi.getPaths().keySet().removeIf(path -> !path.startsWith("/api/") && !path.startsWith("/feeds/") && !path.equals(HUB));
        addProblemComponents(openApi);
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            String security = security(method, path, operation);
            jsonResponses(operation);
            realMediaTypes(path, operation);
            answeredStatuses(method + " " + path, operation);
            problems(method, path, operation, security);
            parameterTypes(operation);
            documentsAsBytes(operation);
            operation.setTags(List.of(feature(path)));
            OperationSummaries.summarise(method + " " + path, operation);
            // Credentials are the security scheme's business, not a parameter a generated client should ask for.
            if (operation.getParameters() != null) {
                operation.getParameters().removeIf(p -> "header".equals(p.getIn()) && "Authorization".equalsIgnoreCase(p.getName()));
            }
        }));
        uniqueOperationIds(openApi);
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                OperationIds.name(method + " " + path, operation)));
        ResponseLinks.declare(openApi);
        closedRequestBodies(openApi);
        enums(openApi);
        checkedBounds(openApi);
        ResponseHeaders.declare(openApi);
        unreferencedSchemas(openApi);
    }

    /**
     * Models only the removed paths used (the hub callback's form, the stream's emitter): a
     * generated client would carry them as classes nothing returns.
     */
    private static void unreferencedSchemas(OpenAPI openApi) {
        Map<String, Schema> schemas = openApi.getComponents().getSchemas();
        if (schemas == null) {
            return;
        }
        // A schema may be used only by another unused one: repeat until nothing more goes.
        boolean removed = true;
        while (removed) {
            Set<String> referenced = new HashSet<>();
            Matcher reference = SCHEMA_REFERENCE.matcher(Json31.pretty(openApi));
            while (reference.find()) {
                referenced.add(reference.group(1));
            }
            removed = schemas.keySet().retainAll(referenced);
        }
    }

    /**
     * Lengths the handlers check in code rather than with {@code @Size} (names and titles are
     * trimmed and cleaned first, so these bound what may be sent; @Size bounds springdoc finds).
     */
    private static void checkedBounds(OpenAPI openApi) {
        Map<String, Map<String, int[]>> bounds = Map.of(
                "FolderName", Map.of("name", new int[] {1, 100}),
                "SubscribeRequest", Map.of("title", new int[] {0, 200}),
                "SubscriptionPatch", Map.of("title", new int[] {0, 200}),
                "Registration", Map.of("username", new int[] {3, 30}));
        bounds.forEach((name, properties) -> {
            Schema<?> schema = openApi.getComponents().getSchemas().get(name);
            if (schema == null || schema.getProperties() == null) {
                return;
            }
            properties.forEach((property, range) -> {
                Schema<?> spec = schema.getProperties().get(property);
                if (spec != null) {
                    spec.setMinLength(range[0] > 0 ? range[0] : null);
                    spec.setMaxLength(range[1]);
                }
            });
        });
        openApi.getPaths().values().forEach(item -> item.readOperations().forEach(operation -> {
            if (operation.getParameters() != null) {
                operation.getParameters().stream().filter(p -> "query".equals(p.getIn()) && "tag".equals(p.getName())
                        && p.getSchema() != null).forEach(p -> p.getSchema().setMaxLength(100));
            }
        }));
    }

    /** Schemas of apps and their grants, whose scopes never include {@code account}. */
    private static final Set<String> APP_SCHEMAS = Set.of("NewApp", "AppView", "AuthorizationView");
    private static final List<String> APP_SCOPES = Scope.FOR_APPS.stream().sorted().map(Scope::wireName).toList();

    /** The closed sets the wire names come from, where the records carry them as plain strings. */
    @SuppressWarnings("unchecked")
    private static void enums(OpenAPI openApi) {
        List<String> media = Arrays.stream(dev.tributary.pubsub.MediaType.values()).map(dev.tributary.pubsub.MediaType::wireName)
                .toList();
        Map<String, List<String>> byProperty = Map.of("media_type", media, "media", media,
                "kind", Arrays.stream(SourceKind.values()).map(SourceKind::wireName).toList(),
                "scopes", Arrays.stream(Scope.values()).map(Scope::wireName).toList(),
                "token_endpoint_auth_method", ClientAuthMethods.ALL);
        openApi.getComponents().getSchemas().forEach((name, schema) -> {
            Map<String, Schema<?>> properties = (Map<String, Schema<?>>) (Map<?, ?>) schema.getProperties();
            if (properties == null) {
                return;
            }
            properties.forEach((property, spec) -> {
                List<String> values = name.equals("SourceView") && property.equals("status") ? SOURCE_STATUSES
                        : property.equals("scopes") && APP_SCHEMAS.contains(name) ? APP_SCOPES
                        : byProperty.get(property);
                Schema<Object> target = (Schema<Object>) (spec.getItems() != null ? spec.getItems() : spec);
                if (values != null && target.get$ref() == null && (target.getEnum() == null || target.getEnum().isEmpty())) {
                    List<Object> allowed = new ArrayList<>(values);
                    if (target.getTypes() != null && target.getTypes().contains("null")) {
                        // A nullable property's enum must list null too, or a validator refuses the null it allows.
                        allowed.add(null);
                    }
                    target.setEnum(allowed);
                }
            });
        });
    }

    /**
     * Statuses the handlers answer that springdoc cannot see (a ResponseEntity's status chosen at
     * run time, a problem thrown): 201 beside 200 where a POST creates or finds, 409 and 422 where
     * the domain refuses, 304 where a validator matches, 404 where a body names what is not the caller's.
     */
    private static void answeredStatuses(String operation, Operation spec) {
        for (String status : STATUSES.getOrDefault(operation, List.of())) {
            ApiResponses responses = spec.getResponses() == null ? new ApiResponses() : spec.getResponses();
            spec.setResponses(responses);
            switch (status) {
                case "201" -> {
                    ApiResponse ok = responses.get("200");
                    if (ok != null && !responses.containsKey("201")) {
                        responses.addApiResponse("201", new ApiResponse().description("Created").content(ok.getContent()));
                        ok.setDescription("Already there: the existing one");
                    }
                }
                case "202" -> responses.addApiResponse("202", new ApiResponse()
                        .description("Invited: the person becomes a member when they accept")
                        .content(new Content().addMediaType("application/json",
                                new MediaType().schema(new Schema<>().$ref("#/components/schemas/InvitationView")))));
                case "304" -> responses.addApiResponse("304", new ApiResponse()
                        .description("Not modified: the validator sent (If-None-Match) still matches"));
                case "404" -> add(responses, "404", "NotFound");
                case "409" -> add(responses, "409", "Conflict");
                default -> add(responses, "422", "Unprocessable");
            }
        }
    }

    /** Typed query parameters where the controllers take strings to word their own 400s. */
    private static void parameterTypes(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        for (Parameter parameter : operation.getParameters()) {
            if (!"query".equals(parameter.getIn())) {
                continue;
            }
            switch (parameter.getName()) {
                case "limit" -> parameter.setSchema(new IntegerSchema().minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(100))
                        ._default(20));
                case "unread" -> parameter.setSchema(new BooleanSchema()._default(false));
                case "max_id", "since_id", "min_id" -> parameter.setSchema(new StringSchema()
                        .pattern(ID_PATTERN).description("An id: a positive decimal number, as a string"));
                // Ids.optional reads these: empty is none.
                case "source_id", "folder_id" -> parameter.setSchema(new StringSchema().pattern(Ids.OPTIONAL_PATTERN)
                        .description("An id: a positive decimal number, as a string; empty for none"));
                // SearchText.parse refuses a missing, blank or overlong query; one of only punctuation or emoji
                // (no word) is a 400 with reason empty_query that no pattern can say.
                case "q" -> {
                    parameter.setRequired(true);
                    parameter.setSchema(new StringSchema().minLength(1).maxLength(SearchText.MAX_CHARS).pattern(NonBlank.PATTERN));
                }
                default -> {
                }
            }
        }
    }

    /** Every request body refuses fields it does not know (a 400), which is JSON Schema's additionalProperties: false. */
    private static void closedRequestBodies(OpenAPI openApi) {
        openApi.getPaths().values().forEach(item -> item.readOperations().forEach(operation -> {
            if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
                return;
            }
            MediaType json = operation.getRequestBody().getContent().get("application/json");
            String ref = json == null || json.getSchema() == null ? null : json.getSchema().get$ref();
            if (ref != null) {
                Schema<?> body = openApi.getComponents().getSchemas().get(ref.substring(ref.lastIndexOf('/') + 1));
                if (body != null) {
                    body.setAdditionalProperties(false);
                }
            }
        }));
    }

    /** The feature an operation belongs to, named by its path: {@code /api/v1/groups/{id}/members} is {@code groups}. */
    static String feature(String path) {
        String rest = path.startsWith("/api/v1/") ? path.substring("/api/v1/".length()) : path.substring(1);
        int end = rest.indexOf('/');
        String first = end < 0 ? rest : rest.substring(0, end);
        int dot = first.indexOf('.');
        return dot < 0 ? first : first.substring(0, dot);
    }

    /**
     * springdoc numbers clashing method names ({@code list}, {@code list_1}, {@code list_2}); a
     * generated client would expose those. Every operation of a clashing name takes its feature's
     * name too ({@code listFolders}, {@code listTokens}), so no id depends on the order of mapping.
     */
    private static void uniqueOperationIds(OpenAPI openApi) {
        List<Operation> all = new ArrayList<>();
        openApi.getPaths().values().forEach(item -> all.addAll(item.readOperations()));
        Map<String, Integer> bases = new HashMap<>();
        all.forEach(operation -> bases.merge(base(operation), 1, Integer::sum));
        Set<String> taken = new HashSet<>();
        for (Operation operation : all) {
            String base = base(operation);
            String id = bases.get(base) > 1 ? base + camel(operation.getTags().getFirst()) : base;
            for (int n = 2; !taken.add(id); n++) {
                id = base + camel(operation.getTags().getFirst()) + n;
            }
            operation.setOperationId(id);
        }
    }

    private static String base(Operation operation) {
        String id = operation.getOperationId() == null ? "operation" : operation.getOperationId();
        return NUMBERED.matcher(id).matches() ? id.substring(0, id.lastIndexOf('_')) : id;
    }

    private static String camel(String feature) {
        StringBuilder name = new StringBuilder();
        for (String part : feature.split("[_-]")) {
            if (!part.isEmpty()) {
                name.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return name.toString();
    }

    /** What the OPML export and the live stream really answer, where springdoc saw byte[] and SseEmitter. */
    private static void realMediaTypes(String path, Operation operation) {
        String type = switch (path) {
            case "/api/v1/subscriptions.opml" -> "text/x-opml";
            case "/api/v1/streaming/home" -> "text/event-stream";
            default -> null;
        };
        ApiResponse ok = operation.getResponses() == null ? null : operation.getResponses().get("200");
        if (type == null || ok == null) {
            return;
        }
        ok.setContent(new Content().addMediaType(type, new MediaType().schema(new StringSchema())));
    }

    /**
     * XML documents (the feeds, OPML out and in) are bytes a client hands to its XML parser:
     * {@code format: binary}, which generators read and send as a file or a byte stream. As plain
     * strings, generated clients parse them as JSON and fail; as {@code format: byte}, they would send base64.
     */
    private static void documentsAsBytes(Operation operation) {
        List<Content> contents = new ArrayList<>();
        if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null) {
            contents.add(operation.getRequestBody().getContent());
        }
        if (operation.getResponses() != null) {
            operation.getResponses().values().stream().filter(response -> response.getContent() != null)
                    .forEach(response -> contents.add(response.getContent()));
        }
        contents.forEach(content -> content.forEach((type, media) -> {
            boolean document = type.contains("xml") || type.contains("opml");
            if (document && media.getSchema() != null && media.getSchema().get$ref() == null) {
                media.setSchema(new StringSchema().format("binary"));
            }
        }));
    }

    /** Sets the operation's security requirement; returns which scheme it needs (null: none). */
    private static String security(PathItem.HttpMethod method, String path, Operation operation) {
        String key = method + " " + path;
        if (OPEN.contains(key) || path.startsWith("/feeds/users/") || path.startsWith("/feeds/groups/")) {
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
        if (accountPath(path)) {
            // No app is granted 'account': only a personal token (or the person's session) serves.
            operation.setSecurity(List.of(new SecurityRequirement().addList(BEARER, Scope.ACCOUNT.wireName())));
            return BEARER;
        }
        String scope = method == PathItem.HttpMethod.GET || method == PathItem.HttpMethod.HEAD ? "read" : "write";
        operation.setSecurity(List.of(new SecurityRequirement().addList(BEARER, scope),
                new SecurityRequirement().addList(OAUTH2, scope)));
        return BEARER;
    }

    /** Whether a documented path (with {@code {placeholders}}) is one of {@link AccountEndpoints#PATTERNS}. */
    private static boolean accountPath(String path) {
        return AccountEndpoints.PATTERNS.stream().anyMatch(pattern -> pattern.endsWith("/**")
                ? path.startsWith(pattern.substring(0, pattern.length() - 2)) : path.equals(pattern));
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

    private static void problems(PathItem.HttpMethod method, String path, Operation operation, String security) {
        ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
        operation.setResponses(responses);
        boolean api = path.startsWith("/api/");
        // The feeds' too: the firewall refuses a path holding a control character or an encoded slash, before any handler.
        if (api || path.equals(HUB) || path.startsWith("/feeds/")) {
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
            add(responses, "415", "UnsupportedMediaType");
        }
        // The size limit is Tomcat's and the filters', before any handler: a body sent where none is read is refused too.
        if (operation.getRequestBody() != null || !(method == PathItem.HttpMethod.GET || method == PathItem.HttpMethod.HEAD)) {
            add(responses, "413", "TooLarge");
        }
        // Feeds are counted per address too (RateLimitSettings.feedRequests).
        // The hub is counted per address (RateLimitSettings.websubRequests), and 503s when it holds all it may.
        if (api || path.startsWith("/feeds/") || path.equals(HUB)) {
            // Tomcat's limits, before any handler: a URL or a header block larger than it reads.
            add(responses, "414", "UriTooLong");
            add(responses, "431", "HeadersTooLarge");
            add(responses, "429", "TooManyRequests");
            // Any request of a node whose stores cannot answer now (StoreUnavailableFilter, ApiExceptionHandler).
            add(responses, "503", "Unavailable");
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
                .addProperty("instance", new StringSchema().format("uri-reference")
                        .description("The request's path, a relative reference"))
                .addProperty("errors", new ArraySchema().items(new Schema<>().$ref("#/components/schemas/FieldError")))
                .addProperty("reason", new StringSchema().description("A stable key of why (422; 403 group_closed; a refresh's 429: "
                        + "recently_fetched, server_asked_to_wait)"))
                .addProperty("fetch_at", new StringSchema().format("date-time")
                        .description("A refresh's 429 for politeness: when the feed will be fetched anyway"));
        problem.setRequired(List.of("type", "title", "status"));
        openApi.getComponents().addSchemas("FieldError", fieldError).addSchemas("Problem", problem);
        Map<String, String> descriptions = new LinkedHashMap<>();
        descriptions.put("BadRequest", "Malformed JSON, a field of the wrong type or value, an unknown field (listed in errors)");
        descriptions.put("Unauthorized", "No valid credentials");
        descriptions.put("Forbidden", "The token lacks the scope, or the caller may not do this");
        descriptions.put("NotFound", "No such thing, or not the caller's to see");
        descriptions.put("TooLarge", "The body is larger than the limit (2 MB by default)");
        descriptions.put("UriTooLong", "The URL (its query included) is longer than the server reads (8 KB)");
        descriptions.put("HeadersTooLarge", "The request's headers are larger than the server reads (8 KB)");
        descriptions.put("UnsupportedMediaType", "The body is not of a content type this operation reads");
        descriptions.put("TooManyRequests", "Over a rate limit (the request budget, a person's posts or comments, password "
                + "checks, an address's live streams, feed refreshes, a feed's politeness); Retry-After says when to try again");
        descriptions.put("Conflict", "It clashes with what exists (a taken name, the owner leaving their group)");
        descriptions.put("Unavailable", "The node cannot answer now: too busy (its database connections all taken) or cut off "
                + "from MySQL or Redis, the feature switched off by the operator, or the node full (streams); "
                + "Retry-After says when to try again");
        descriptions.put("Unprocessable", "Well-formed but refused: the problem's reason says why (a feed that cannot be "
                + "read, no such person or folder, a limit reached)");
        descriptions.forEach((name, description) -> {
            openApi.getComponents().addResponses(name, new ApiResponse().description(description).content(new Content()
                    .addMediaType(PROBLEM_JSON, new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem")))));
        });
    }
}
