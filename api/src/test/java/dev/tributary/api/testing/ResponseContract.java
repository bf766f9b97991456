package dev.tributary.api.testing;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialects;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The running app's OpenAPI document as a judge of its answers: an answer to a documented
 * operation must have a status the operation declares, a declared content type and a body its
 * schema accepts. Paths outside {@code /api/v1} (Fever, Google Reader, exports, pages, OAuth)
 * are not judged.
 */
public final class ResponseContract {

    /** The document's own address, so that its {@code #/components/...} references resolve. */
    private static final String DOCUMENT = "https://tributary.test/v3/api-docs";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern VARIABLE = Pattern.compile("\\{[^}/]+}");
    /**
     * HTTP's own headers (framing, caching, the security headers Spring Security adds to every answer,
     * cookies, CORS, proxy hints): not the contract's to declare. Any other header an answer carries must be declared.
     */
    static final Set<String> HTTP_HEADERS = Set.of("content-type", "content-length", "content-encoding", "content-language",
            "transfer-encoding", "date", "connection", "keep-alive", "vary", "cache-control", "pragma", "expires",
            "x-content-type-options", "x-frame-options", "x-xss-protection", "strict-transport-security",
            "content-security-policy", "referrer-policy", "permissions-policy", "cross-origin-opener-policy",
            "cross-origin-embedder-policy", "cross-origin-resource-policy", "set-cookie", "x-accel-buffering");

    /**
     * One document per running app (by base URL), fetched on first use: test classes share a cached
     * application context but each makes its own ApiClient, and the document does not change.
     */
    private static final Map<String, ResponseContract> BY_APP = new ConcurrentHashMap<>();

    private final JsonNode document;
    private final List<Route> routes;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    /** A contract read from an OpenAPI 3.1 document's JSON. */
    public ResponseContract(String documentJson) {
        this.document = JSON.readTree(documentJson);
        this.routes = routes(document);
        this.registry = SchemaRegistry.withDialect(Dialects.getOpenApi31(), builder -> builder
                .schemas(Map.of(DOCUMENT, documentJson))
                .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    }

    /** The contract of the app at {@code base}, its document read by {@code fetch} the first time. */
    static ResponseContract of(String base, Function<String, String> fetch) {
        return BY_APP.computeIfAbsent(base, app -> new ResponseContract(fetch.apply(app + "/v3/api-docs")));
    }

    /** Every way the answer's status and body depart from the document (its headers not judged). */
    public List<String> violations(String method, URI uri, int status, @Nullable String contentType, String body) {
        return violations(method, uri, status, null, contentType, body);
    }

    /**
     * Every way the answer departs from the document; empty when it conforms or is not the document's to judge.
     * With {@code headers}, also each header beyond HTTP's own ({@link #HTTP_HEADERS}) that the response does not
     * declare, each declared required one left out, and each declared integer that is not one.
     */
    public List<String> violations(String method, URI uri, int status, @Nullable Map<String, List<String>> headers,
            @Nullable String contentType, String body) {
        String path = uri.getRawPath();
        if (!path.startsWith("/api/v1/")) {
            return List.of();
        }
        // Spring answers HEAD with the GET handler.
        String lookup = method.equals("HEAD") ? "GET" : method;
        Optional<Route> found = routes.stream().filter(route -> route.matches(lookup, path)).min(Route.MOST_SPECIFIC);
        if (found.isEmpty()) {
            // An unknown path or an undeclared method: the stack's 404/405, which StackErrorsApiTest judges.
            return List.of();
        }
        Route route = found.get();
        String operation = route.describe();
        JsonNode responses = route.operation().path("responses");
        String statusKey = String.valueOf(status);
        JsonNode response = responses.has(statusKey) ? responses.path(statusKey) : responses.path("default");
        if (response.isMissingNode()) {
            return List.of(operation + " answered " + status + ", which it does not declare (it declares "
                    + names(responses) + "): " + abbreviate(body));
        }
        String pointer = responses.has(statusKey) ? route.pointer() + "/responses/" + statusKey : route.pointer() + "/responses/default";
        if (response.has("$ref")) {
            pointer = response.path("$ref").asString().substring(1);
            response = document.at(pointer);
        }
        List<String> violations = new ArrayList<>(headerViolations(operation + " " + status, response, headers));
        violations.addAll(bodyViolations(operation + " " + status, method, response, pointer, contentType, body));
        return violations;
    }

    private List<String> headerViolations(String where, JsonNode response, @Nullable Map<String, List<String>> sent) {
        if (sent == null) {
            return List.of();
        }
        Map<String, JsonNode> declared = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (var header : response.path("headers").properties()) {
            JsonNode spec = header.getValue();
            declared.put(header.getKey(), spec.has("$ref") ? document.at(spec.path("$ref").asString().substring(1)) : spec);
        }
        Map<String, List<String>> received = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        sent.forEach((name, values) -> {
            if (!name.startsWith(":") && !HTTP_HEADERS.contains(name.toLowerCase(Locale.ROOT))
                    && !name.toLowerCase(Locale.ROOT).startsWith("access-control-")) {
                received.put(name, values);
            }
        });
        List<String> violations = new ArrayList<>();
        received.forEach((name, values) -> {
            JsonNode spec = declared.get(name);
            if (spec == null) {
                violations.add(where + " sent the header " + name + ", which it does not declare (it declares "
                        + (declared.isEmpty() ? "none" : String.join(", ", declared.keySet())) + ")");
            } else if (spec.path("schema").path("type").asString().equals("integer")
                    && values.stream().anyMatch(value -> !value.matches("-?[0-9]+"))) {
                violations.add(where + " sent the header " + name + ": " + values + ", which is declared an integer");
            }
        });
        declared.forEach((name, spec) -> {
            if (spec.path("required").asBoolean(false) && !received.containsKey(name)) {
                violations.add(where + " left out the header " + name + ", which it declares required");
            }
        });
        return violations;
    }

    private List<String> bodyViolations(String where, String method, JsonNode response, String pointer,
            @Nullable String contentType, String body) {
        JsonNode content = response.path("content");
        if (body.isEmpty() || method.equals("HEAD")) {
            return List.of();
        }
        if (content.isMissingNode() || content.isEmpty()) {
            return List.of(where + " declares no body, but one came (" + contentType + "): " + abbreviate(body));
        }
        if (contentType == null) {
            return List.of(where + " has a body but no Content-Type");
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        String declared = declaredMediaType(content, mediaType);
        if (declared == null) {
            return List.of(where + " answered " + mediaType + ", which it does not declare (it declares " + names(content) + ")");
        }
        if (!(mediaType.equals("application/json") || mediaType.endsWith("+json")) || !content.path(declared).has("schema")) {
            return List.of();
        }
        JsonNode instance;
        try {
            instance = JSON.readTree(body);
        } catch (RuntimeException e) {
            return List.of(where + " answered " + mediaType + " that is not JSON: " + abbreviate(body));
        }
        String schemaPointer = pointer + "/content/" + escape(declared) + "/schema";
        List<Error> errors = schemas.computeIfAbsent(schemaPointer, this::schema).validate(instance);
        List<String> violations = new ArrayList<>();
        errors.forEach(error -> violations.add(where + " (" + mediaType + "): " + error.getInstanceLocation() + " "
                + error.getMessage() + " [schema " + error.getSchemaLocation() + "]"));
        if (!violations.isEmpty()) {
            violations.add("  in " + abbreviate(body));
        }
        return violations;
    }

    /** Every way {@code body} departs from the named schema of the document's components (a request body's, say). */
    public List<String> schemaViolations(String schemaName, JsonNode body) {
        return schemas.computeIfAbsent("/components/schemas/" + escape(schemaName), this::schema).validate(body).stream()
                .map(error -> error.getInstanceLocation() + " " + error.getMessage()).toList();
    }

    private Schema schema(String pointer) {
        // The schema as a resource of its own whose references point back into the document.
        JsonNode node = absoluteReferences(document.at(pointer).deepCopy());
        return registry.getSchema(SchemaLocation.of("https://tributary.test/schemas/" + schemas.size()), node);
    }

    private static JsonNode absoluteReferences(JsonNode node) {
        if (node instanceof ObjectNode object && object.path("$ref").isString() && object.path("$ref").asString().startsWith("#")) {
            object.put("$ref", DOCUMENT + object.path("$ref").asString());
        }
        for (JsonNode child : node) {
            absoluteReferences(child);
        }
        return node;
    }

    private static @Nullable String declaredMediaType(JsonNode content, String mediaType) {
        for (var entry : content.properties()) {
            String declared = entry.getKey().toLowerCase(Locale.ROOT);
            if (declared.equals(mediaType) || declared.equals("*/*")
                    || (declared.endsWith("/*") && mediaType.startsWith(declared.substring(0, declared.length() - 1)))) {
                return entry.getKey();
            }
        }
        return null;
    }

    private static List<Route> routes(JsonNode document) {
        List<Route> routes = new ArrayList<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                if (operation.getValue().isObject() && operation.getValue().has("responses")) {
                    routes.add(Route.of(operation.getKey().toUpperCase(Locale.ROOT), path.getKey(), operation.getValue()));
                }
            }
        }
        return routes;
    }

    private static String names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.propertyNames().forEach(names::add);
        return String.join(", ", names);
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String abbreviate(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "…" : body;
    }

    /** A documented operation: its method, its path template as a pattern, and where it sits in the document. */
    private record Route(String method, String template, Pattern pattern, int variables, JsonNode operation) {

        /** As Spring picks a handler: fewer path variables first, then the longer template. */
        static final Comparator<Route> MOST_SPECIFIC = Comparator.comparingInt(Route::variables)
                .thenComparing(Comparator.comparingInt((Route route) -> route.template().length()).reversed());

        static Route of(String method, String template, JsonNode operation) {
            StringBuilder regex = new StringBuilder();
            Matcher variable = VARIABLE.matcher(template);
            int last = 0;
            int count = 0;
            while (variable.find()) {
                regex.append(Pattern.quote(template.substring(last, variable.start()))).append("[^/]+?");
                last = variable.end();
                count++;
            }
            regex.append(Pattern.quote(template.substring(last)));
            return new Route(method, template, Pattern.compile(regex.toString()), count, operation);
        }

        boolean matches(String requestMethod, String path) {
            return method.equals(requestMethod) && pattern.matcher(path).matches();
        }

        String pointer() {
            return "/paths/" + escape(template) + "/" + method.toLowerCase(Locale.ROOT);
        }

        String describe() {
            return method + " " + template + " (" + operation.path("operationId").asString() + ")";
        }
    }
}
