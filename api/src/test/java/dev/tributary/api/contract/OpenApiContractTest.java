package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ResponseContract;
import dev.tributary.api.testing.TestUser;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/** The OpenAPI document against the running app: the same operations, the API's field names, security and errors. */
@ApiTest
class OpenApiContractTest {

    private static final Pattern SNAKE_CASE = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");

    @LocalServerPort int port;
    @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;
    private JsonNode document;
    private String documentText;

    @BeforeEach
    void fetchDocument() {
        ApiResponse response = new ApiClient(port).get("/v3/api-docs", null);
        assertThat(response.status()).as("public, no token").isEqualTo(200);
        documentText = response.body();
        document = response.json();
    }

    /** ApiClient checks every answer against this document; here, that the check would catch a departure. */
    @Test
    void theDocumentJudgesTheAnswersOfTheApiTests() {
        ApiClient client = new ApiClient(port);
        TestUser alice = client.newUser("judged");
        ApiResponse me = client.get("/api/v1/me", alice.token());
        ResponseContract contract = new ResponseContract(documentText);
        URI uri = URI.create(client.url("/api/v1/me"));

        assertThat(contract.violations("GET", uri, 200, me.contentType(), me.body())).as("the real answer").isEmpty();
        assertThat(contract.violations("GET", uri, 200, me.contentType(), me.body().replace("\"" + alice.id() + "\"", alice.id())))
                .as("an id as a number").anySatisfy(v -> assertThat(v).contains("GET /api/v1/me", "id"));
        assertThat(contract.violations("GET", uri, 409, "application/problem+json", "{}")).singleElement().asString()
                .contains("answered 409, which it does not declare");
        assertThat(contract.violations("GET", uri, 200, "text/html", "<p>me</p>")).singleElement().asString()
                .contains("text/html");
        assertThat(contract.violations("GET", URI.create(client.url("/api/v1/timelines/home")), 200, "application/json",
                "[{\"id\": \"1\"}]")).as("an item without its required fields").isNotEmpty();
    }

    @Test
    void theDocumentListsExactlyTheOperationsTheAppMaps() {
        Set<String> mapped = new TreeSet<>();
        mappings.getHandlerMethods().keySet().forEach(info -> mapped.addAll(operations(info)));
        Set<String> documented = new TreeSet<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                if (HTTP_METHODS.contains(operation.getKey()) && clientFacing(path.getKey())) {
                    documented.add(operation.getKey().toUpperCase() + " " + path.getKey());
                }
            }
        }

        assertThat(mapped).as("the app maps the export and the account endpoints at least")
                .contains("GET /feeds/users/{username}.rss", "GET /feeds/home.atom", "GET /api/v1/me");
        assertThat(documented).as("documented = mapped").containsExactlyInAnyOrderElementsOf(mapped);
        assertThat(document.path("paths").has("/websub/{sourceId}")).as("hub callbacks are not for clients").isFalse();
    }

    @Test
    void propertyAndParameterNamesAreSnakeCase() {
        List<String> wrong = new ArrayList<>();
        for (var schema : document.path("components").path("schemas").properties()) {
            collectPropertyNames(schema.getKey(), schema.getValue(), wrong);
        }
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                for (JsonNode parameter : operation.getValue().path("parameters")) {
                    String in = parameter.path("in").asString();
                    if ((in.equals("query") || in.equals("path")) && !SNAKE_CASE.matcher(parameter.path("name").asString()).matches()) {
                        wrong.add(path.getKey() + " " + parameter.path("name").asString());
                    }
                }
            }
        }

        assertThat(document.path("components").path("schemas").path("MeView").path("properties").has("feed_token")).isTrue();
        assertThat(wrong).isEmpty();
        assertThat(document.toString()).as("the Caller argument is not a parameter").doesNotContain("\"caller\"");
    }

    @Test
    void everyOperationStatesItsSecurityAndProblemResponses() {
        JsonNode schemes = document.path("components").path("securitySchemes");
        assertThat(schemes.path("bearer").path("scheme").asString()).isEqualTo("bearer");
        assertThat(schemes.path("oauth2").path("flows").path("authorizationCode").path("scopes").propertyNames())
                .containsExactlyInAnyOrder("read", "write");
        assertThat(document.path("components").path("schemas").path("Problem").path("required").valueStream()
                .map(JsonNode::asString)).containsExactlyInAnyOrder("type", "title", "status");

        for (var path : document.path("paths").properties()) {
            for (var entry : path.getValue().properties()) {
                String operation = entry.getKey().toUpperCase() + " " + path.getKey();
                JsonNode security = entry.getValue().path("security");
                if (path.getKey().startsWith("/api/") && !Set.of("POST /api/v1/accounts", "POST /api/v1/apps", "POST /api/v1/tokens").contains(operation)) {
                    boolean account = path.getKey().startsWith("/api/v1/tokens") || path.getKey().startsWith("/api/v1/authorizations")
                            || path.getKey().equals("/api/v1/me/feed_token") || path.getKey().equals("/api/v1/me/password")
                            || path.getKey().equals("/api/v1/me/sessions/revoke")
                            || path.getKey().startsWith("/api/v1/me/xmpp");
                    String scope = account ? "account" : entry.getKey().equals("get") ? "read" : "write";
                    assertThat(security.path(0).path("bearer").path(0).asString()).as(operation).isEqualTo(scope);
                    if (account) {
                        assertThat(security.size()).as(operation + ": no app is granted 'account'").isEqualTo(1);
                    }
                    assertThat(entry.getValue().path("responses").has("401")).as(operation).isTrue();
                }
                if (path.getKey().startsWith("/api/")) {
                    assertThat(problemResponse(entry.getValue().path("responses").path("400"))).as(operation).isTrue();
                    assertThat(problemResponse(entry.getValue().path("responses").path("429"))).as(operation).isTrue();
                }
            }
        }
        assertThat(document.path("paths").path("/feeds/home.rss").path("get").path("security").path(0).has("feed_token")).isTrue();
        assertThat(document.path("paths").path("/feeds/users/{username}.atom").path("get").path("responses").path("200")
                .path("content").has("application/atom+xml")).isTrue();
    }

    @Test
    void nullableFieldsSayNullAndTheOthersAreRequired() {
        JsonNode schemas = document.path("components").path("schemas");
        for (String field : List.of("title", "url", "author", "summary")) {
            assertThat(types(schemas.path("ItemView").path("properties").path(field))).as("ItemView." + field).contains("null");
        }
        for (String field : List.of("url", "site_url", "last_fetched_at", "next_fetch_at", "last_error", "title")) {
            assertThat(types(schemas.path("SourceView").path("properties").path(field))).as("SourceView." + field).contains("null");
        }
        assertThat(types(schemas.path("SubscriptionView").path("properties").path("media"))).contains("array", "null");
        assertThat(types(schemas.path("ItemView").path("properties").path("id"))).containsExactly("string");
        assertThat(strings(schemas.path("ItemView").path("required"))).contains("id", "source", "media_type", "published_at",
                "read", "starred").doesNotContain("title", "url");
        assertThat(strings(schemas.path("PostRequest").path("required"))).containsExactly("text");
        assertThat(strings(schemas.path("SubscriptionView").path("required"))).contains("id", "source").doesNotContain("media");
    }

    @Test
    void answeredStatusesTypedParametersAndClosedBodiesAreDeclared() {
        JsonNode paths = document.path("paths");
        assertThat(paths.path("/api/v1/subscriptions").path("post").path("responses").propertyNames()).contains("200", "201", "422");
        assertThat(paths.path("/api/v1/accounts").path("post").path("responses").propertyNames()).contains("409");
        assertThat(paths.path("/api/v1/me/feeds").path("post").path("responses").propertyNames()).contains("201", "422");
        assertThat(paths.path("/api/v1/groups/{id}/members").path("post").path("responses").propertyNames()).contains("201", "422");
        assertThat(paths.path("/api/v1/groups/{id}/members/{username}").path("delete").path("responses").propertyNames())
                .contains("409");
        assertThat(paths.path("/api/v1/timelines/home").path("get").path("responses").propertyNames()).contains("304");

        JsonNode home = paths.path("/api/v1/timelines/home").path("get").path("parameters");
        assertThat(parameter(home, "limit").path("type").toString()).contains("integer");
        assertThat(parameter(home, "limit").path("maximum").asInt()).isEqualTo(100);
        assertThat(parameter(home, "unread").path("type").toString()).contains("boolean");
        assertThat(parameter(home, "max_id").path("pattern").asString()).isNotEmpty();

        JsonNode schemas = document.path("components").path("schemas");
        for (String body : List.of("PostRequest", "SubscribeRequest", "Marker", "NewToken", "NewApp")) {
            assertThat(schemas.path(body).path("additionalProperties").isBoolean()).as(body).isTrue();
            assertThat(schemas.path(body).path("additionalProperties").asBoolean()).as(body).isFalse();
        }
    }

    @Test
    void closedSetsAreEnums() {
        JsonNode schemas = document.path("components").path("schemas");
        assertThat(strings(schemas.path("SourceView").path("properties").path("kind").path("enum")))
                .containsExactlyInAnyOrder("feed", "user", "group");
        assertThat(strings(schemas.path("SourceView").path("properties").path("status").path("enum")))
                .containsExactlyInAnyOrder("ok", "error", "gone");
        assertThat(strings(schemas.path("ItemView").path("properties").path("media_type").path("enum")))
                .containsExactlyInAnyOrder("text", "link", "image", "video", "audio");
        assertThat(strings(schemas.path("SubscribeRequest").path("properties").path("media").path("items").path("enum")))
                .contains("image");
        assertThat(strings(schemas.path("NewToken").path("properties").path("scopes").path("items").path("enum")))
                .containsExactlyInAnyOrder("read", "write", "account");
        assertThat(strings(schemas.path("NewApp").path("properties").path("scopes").path("items").path("enum")))
                .as("no app is granted 'account'").containsExactlyInAnyOrder("read", "write");
    }

    @Test
    void everyOperationHasASummaryAndEnforcedLengthsAreBounds() {
        List<String> unsummarised = new ArrayList<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                if (operation.getValue().path("summary").asString().isBlank()) {
                    unsummarised.add(operation.getKey().toUpperCase() + " " + path.getKey());
                }
            }
        }
        assertThat(unsummarised).as("operations without a summary (OperationSummaries)").isEmpty();

        JsonNode schemas = document.path("components").path("schemas");
        assertThat(schemas.path("PostRequest").path("properties").path("text").path("maxLength").asInt()).isEqualTo(5000);
        assertThat(schemas.path("Registration").path("properties").path("password").path("minLength").asInt()).isEqualTo(8);
        assertThat(schemas.path("Registration").path("properties").path("password").path("maxLength").asInt()).isEqualTo(72);
        assertThat(schemas.path("Registration").path("properties").path("username").path("maxLength").asInt()).isEqualTo(30);
        assertThat(schemas.path("FolderName").path("properties").path("name").path("minLength").asInt()).isEqualTo(1);
        assertThat(schemas.path("FolderName").path("properties").path("name").path("maxLength").asInt()).isEqualTo(100);
        assertThat(schemas.path("SubscriptionPatch").path("properties").path("title").path("maxLength").asInt()).isEqualTo(200);
        assertThat(schemas.path("NewToken").path("properties").path("name").path("maxLength").asInt()).isEqualTo(100);
        assertThat(parameter(document.path("paths").path("/api/v1/timelines/home").path("get").path("parameters"), "tag")
                .path("maxLength").asInt()).isEqualTo(100);
    }

    private static JsonNode parameter(JsonNode parameters, String name) {
        return parameters.valueStream().filter(p -> p.path("name").asString().equals(name)).findFirst().orElseThrow()
                .path("schema");
    }

    private static List<String> types(JsonNode property) {
        JsonNode type = property.path("type");
        return type.isArray() ? strings(type) : List.of(type.asString());
    }

    private static List<String> strings(JsonNode array) {
        return array.valueStream().map(JsonNode::asString).toList();
    }

    @Test
    void requestSchemasStateWhatTheServerRequires() {
        JsonNode schemas = document.path("components").path("schemas");

        assertThat(strings(schemas.path("AppView").path("properties").path("token_endpoint_auth_method").path("enum")))
                .containsExactly("client_secret_basic", "client_secret_post", "none");
        assertThat(schemas.path("NewApp").path("properties").path("token_endpoint_auth_method").path("enum").valueStream()
                .map(value -> value.isNull() ? null : value.asString()).toList())
                .as("optional, so null is listed too").containsExactly("client_secret_basic", "client_secret_post", "none", null);
        assertThat(strings(schemas.path("Marker").path("required"))).contains("up_to_id");
        assertThat(types(schemas.path("Marker").path("properties").path("up_to_id"))).containsExactly("string");
        assertThat(schemas.path("Registration").path("properties").path("email").path("minLength").asInt())
                .as("an empty email is refused").isPositive();
    }

    @Test
    void mediaTypesTagsAndOperationIdsAreWhatAGeneratedClientNeeds() {
        JsonNode paths = document.path("paths");
        assertThat(paths.path("/api/v1/subscriptions.opml").path("get").path("responses").path("200").path("content")
                .propertyNames()).containsExactly("text/x-opml");
        assertThat(paths.path("/api/v1/streaming/home").path("get").path("responses").path("200").path("content")
                .propertyNames()).containsExactly("text/event-stream");
        assertThat(document.path("components").path("schemas").path("Problem").path("properties").path("instance")
                .path("format").asString()).as("a path, not an absolute URI").isEqualTo("uri-reference");
        assertThat(paths.path("/api/v1/tokens").path("post").path("parameters").valueStream()
                .map(p -> p.path("name").asString())).as("credentials are a security scheme").doesNotContain("Authorization");

        Set<String> ids = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (var path : paths.properties()) {
            for (var operation : path.getValue().properties()) {
                String id = operation.getValue().path("operationId").asString();
                String tag = operation.getValue().path("tags").path(0).asString();
                if (!ids.add(id) || id.matches(".+_[0-9]+")) {
                    problems.add(path.getKey() + " has operationId " + id);
                }
                if (!OperationIds.chosen(id)) {
                    problems.add(operation.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey()
                            + " has springdoc's operationId " + id + ", not one chosen in OperationIds");
                }
                if (tag.isEmpty() || tag.endsWith("-controller") || operation.getValue().path("tags").size() != 1) {
                    problems.add(path.getKey() + " is tagged " + operation.getValue().path("tags"));
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(paths.path("/api/v1/groups/{id}/members").path("get").path("tags").path(0).asString()).isEqualTo("groups");
        assertThat(paths.path("/feeds/home.rss").path("get").path("tags").path(0).asString()).isEqualTo("feeds");
    }

    @Test
    void headersXmlBodiesAndTheServerAreWhatAGeneratedClientNeeds() {
        JsonNode paths = document.path("paths");
        JsonNode home = paths.path("/api/v1/timelines/home").path("get").path("responses");
        assertThat(home.path("200").path("headers").propertyNames()).contains("ETag", "Link", "RateLimit-Limit",
                "RateLimit-Remaining", "RateLimit-Reset");
        assertThat(home.path("304").path("headers").propertyNames()).contains("ETag");
        assertThat(document.path("components").path("headers").path("ETag").path("required").asBoolean()).isTrue();
        assertThat(document.path("components").path("headers").path("Retry-After").path("required").asBoolean()).isTrue();
        assertThat(document.path("components").path("responses").path("TooManyRequests").path("headers").propertyNames())
                .contains("Retry-After", "RateLimit-Reset");
        assertThat(paths.path("/api/v1/groups/{id}/members").path("get").path("responses").path("200").path("headers")
                .propertyNames()).contains("Link");
        assertThat(paths.path("/feeds/home.rss").path("get").path("responses").path("200").path("headers").propertyNames())
                .contains("ETag", "Last-Modified").doesNotContain("RateLimit-Limit");

        assertThat(paths.path("/feeds/home.rss").path("get").path("responses").path("200").path("content")
                .path("application/rss+xml").path("schema").path("format").asString()).isEqualTo("binary");
        assertThat(paths.path("/api/v1/subscriptions/import").path("post").path("requestBody").path("content")
                .path("text/x-opml").path("schema").path("format").asString()).as("bytes, not base64").isEqualTo("binary");
        assertThat(document.path("servers").path(0).path("url").asString()).as("no build machine's port").isEqualTo("/");
        assertThat(document.path("components").path("schemas").propertyNames()).as("models nothing uses")
                .doesNotContain("SseEmitter", "MultiValueMapStringString");
    }

    /**
     * The links a client (and Schemathesis's stateful phase) chains calls by: each leads to an
     * operation that exists, names only parameters it takes (in its path or query), fills every
     * parameter of its path, and takes them from properties the answer's schema has.
     */
    @Test
    void everyLinkLeadsToAnOperationWithTheParametersItNames() {
        Map<String, JsonNode> operations = new HashMap<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                operations.put(operation.getValue().path("operationId").asString(), operation.getValue());
            }
        }
        List<String> problems = new ArrayList<>();
        Set<String> followed = new TreeSet<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                String source = operation.getValue().path("operationId").asString();
                for (var answer : operation.getValue().path("responses").properties()) {
                    JsonNode schema = answer.getValue().path("content").path("application/json").path("schema");
                    for (var link : answer.getValue().path("links").properties()) {
                        String where = source + " " + answer.getKey() + " -> " + link.getKey();
                        JsonNode target = operations.get(link.getValue().path("operationId").asString());
                        if (target == null) {
                            problems.add(where + ": no operation " + link.getValue().path("operationId"));
                            continue;
                        }
                        followed.add(source + " " + answer.getKey() + " -> " + link.getValue().path("operationId").asString());
                        Set<String> named = new TreeSet<>();
                        for (var parameter : link.getValue().path("parameters").properties()) {
                            String name = parameter.getKey().replaceFirst("^(path|query)\\.", "");
                            named.add(name);
                            if (!parameterNames(target, "path").contains(name) && !parameterNames(target, "query").contains(name)) {
                                problems.add(where + ": the target takes no path or query parameter " + name);
                            }
                            String expression = parameter.getValue().asString();
                            if (!expression.startsWith("$response.body#/")) {
                                problems.add(where + ": " + name + " is not taken from the answer's body: " + expression);
                            } else if (property(schema, expression.substring("$response.body#/".length())).isMissingNode()) {
                                problems.add(where + ": the answer's schema has no " + expression);
                            }
                        }
                        if (!named.containsAll(parameterNames(target, "path"))) {
                            problems.add(where + ": fills " + named + " of the path's " + parameterNames(target, "path"));
                        }
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(followed).contains("createFolder 201 -> deleteFolder", "subscribe 201 -> listSourceItems",
                "subscribe 200 -> unsubscribe", "createPost 201 -> addComment", "addComment 201 -> deleteComment",
                "markReadUpTo 200 -> undoMarker", "createGroup 201 -> getGroupFeed", "createRule 201 -> updateRule");
        assertThat(property(document.path("components").path("schemas").path("FolderView"), "no_such_field").isMissingNode())
                .as("the walk can tell a missing property").isTrue();
    }

    private static Set<String> parameterNames(JsonNode operation, String in) {
        Set<String> names = new TreeSet<>();
        operation.path("parameters").forEach(p -> {
            if (p.path("in").asString().equals(in)) {
                names.add(p.path("name").asString());
            }
        });
        return names;
    }

    /** The schema of the property a JSON pointer names in a document of this schema, following $refs; missing if none. */
    private JsonNode property(JsonNode schema, String pointer) {
        JsonNode current = schema;
        for (String step : pointer.split("/")) {
            current = resolved(current).path("properties").path(step.replace("~1", "/").replace("~0", "~"));
        }
        return current;
    }

    private JsonNode resolved(JsonNode schema) {
        String ref = schema.path("$ref").asString("");
        return ref.startsWith("#/components/schemas/")
                ? document.path("components").path("schemas").path(ref.substring("#/components/schemas/".length())) : schema;
    }

    private boolean problemResponse(JsonNode response) {
        JsonNode resolved = response;
        if (response.has("$ref")) {
            String name = response.path("$ref").asString().substring("#/components/responses/".length());
            resolved = document.path("components").path("responses").path(name);
        }
        return resolved.path("content").path("application/problem+json").path("schema").path("$ref").asString()
                .equals("#/components/schemas/Problem");
    }

    private static void collectPropertyNames(String where, JsonNode schema, List<String> wrong) {
        if (!schema.isObject()) {
            return;
        }
        for (var property : schema.path("properties").properties()) {
            if (!SNAKE_CASE.matcher(property.getKey()).matches()) {
                wrong.add(where + "." + property.getKey());
            }
            collectPropertyNames(where + "." + property.getKey(), property.getValue(), wrong);
        }
        collectPropertyNames(where + "[]", schema.path("items"), wrong);
    }

    private static List<String> operations(RequestMappingInfo info) {
        Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
        List<String> operations = new ArrayList<>();
        for (String pattern : info.getPatternValues()) {
            if (!clientFacing(pattern)) {
                continue;
            }
            String path = withoutRegex(pattern);
            (methods.isEmpty() ? Set.of(RequestMethod.GET) : methods).forEach(m -> operations.add(m.name() + " " + path));
        }
        return operations;
    }

    private static boolean clientFacing(String path) {
        return path.startsWith("/api/v1/") || path.startsWith("/feeds/");
    }

    /** {@code {name:regex}} as the document writes it, {@code {name}}; the regex may hold braces of its own. */
    static String withoutRegex(String pattern) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '{') {
                out.append(c);
                continue;
            }
            int depth = 1;
            int colon = -1;
            int j = i + 1;
            for (; j < pattern.length() && depth > 0; j++) {
                char d = pattern.charAt(j);
                if (d == '{') {
                    depth++;
                } else if (d == '}') {
                    depth--;
                } else if (d == ':' && depth == 1 && colon < 0) {
                    colon = j;
                }
            }
            String name = pattern.substring(i + 1, colon > 0 ? colon : j - 1).replace("*", "");
            out.append('{').append(name).append('}');
            i = j - 1;
        }
        return out.toString();
    }
}
