package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import java.util.ArrayList;
import java.util.List;
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

    @BeforeEach
    void fetchDocument() {
        ApiResponse response = new ApiClient(port).get("/v3/api-docs", null);
        assertThat(response.status()).as("public, no token").isEqualTo(200);
        document = response.json();
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
                    String scope = entry.getKey().equals("get") ? "read" : "write";
                    assertThat(security.path(0).path("bearer").path(0).asString()).as(operation).isEqualTo(scope);
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
