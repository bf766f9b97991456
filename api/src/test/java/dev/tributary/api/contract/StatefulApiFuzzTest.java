package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ResponseContract;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.web.Ids;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fuzz test's stateful phase (issue 49): a person signs up, makes a token and an app, files a
 * folder, makes a group and a rule, follows another person and a group, posts and comments; then
 * every documented operation is called, in rounds, with ids and links earlier answers gave
 * (a seeded random choice of them) and bodies generated from its schema, deletions last. No answer
 * may be a 5xx, and every answer must be one the document declares (ApiClient checks each against
 * it). Bounded: {@link #ROUNDS} calls of each operation (deletions one, in the last round), plus the
 * {@code next} links they answer (at most 3 each).
 */
@ApiTest
class StatefulApiFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int ROUNDS = 4;
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>;\\s*rel=\"next\"");
    private static final Pattern VARIABLE = Pattern.compile("\\{([^}]+)}");
    /**
     * Operations that never end (a live stream) or end what the rest needs: signing out everywhere
     * revokes the fuzzer's own token, and every later call would be a 401.
     */
    private static final Set<String> SKIPPED = Set.of("GET /api/v1/streaming/home", "POST /api/v1/me/sessions/revoke");
    private static final List<String> WORDS = List.of("Fuzz", "a", "ü🙂 ok", "<b>x</b> & y", "Tag", "title words");

    @LocalServerPort int port;

    private final Random random = new Random(49);
    private final Map<String, List<String>> ids = new HashMap<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<Integer, Integer> statuses = new TreeMap<>();
    /** The fuzzer's own token: never a candidate for deletion. */
    private String ownTokenId = "";

    @Test
    void followUpOperationsWithEarlierAnswersNeverFailOrLeaveTheContract() {
        ApiClient api = new ApiClient(port);
        // The server builds the document at start-up; on a loaded machine that may still be under way.
        ApiResponse documentAnswer = api.send(api.builder("/v3/api-docs", null).timeout(Duration.ofMinutes(3)).GET());
        JsonNode document = documentAnswer.json();
        ResponseContract contract = new ResponseContract(documentAnswer.body());
        TestUser other = api.newUser("statefulother");

        // The state: every answer below goes through the same contract check as the fuzz that follows.
        String username = ApiClient.uniqueUsername("stateful");
        String password = "stateful password";
        expect(api.post("/api/v1/accounts", null, Map.of("username", username, "password", password)), 201);
        ApiResponse token = api.send(api.builder("/api/v1/tokens", null).header("Content-Type", "application/json")
                .header("Authorization", ApiClient.basic(username, password))
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"fuzz\", \"scopes\": [\"read\", \"write\", \"account\"]}")));
        expect(token, 201);
        String bearer = token.json().path("token").asString();
        ownTokenId = token.json().path("id").asString();
        harvest("tokens", expect(api.send(api.builder("/api/v1/tokens", null).header("Content-Type", "application/json")
                .header("Authorization", ApiClient.basic(username, password))
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"spare\", \"scopes\": [\"read\"]}"))), 201).json());
        harvest("apps", expect(api.post("/api/v1/apps", null, Map.of("client_name", "Fuzz",
                "redirect_uris", List.of("https://app.example/cb"), "scopes", List.of("read"))), 201).json());
        harvest("folders", expect(api.post("/api/v1/folders", bearer, Map.of("name", "Fuzz")), 201).json());
        harvest("groups", expect(api.post("/api/v1/groups", bearer, Map.of("name", "Fuzz", "open", true)), 200).json());
        harvest("rules", expect(api.post("/api/v1/rules", bearer, Map.of("action", "star", "pattern", "fuzz")), 201).json());
        harvest("subscriptions", expect(api.post("/api/v1/subscriptions", bearer, Map.of("user", other.username(),
                "folder_ids", ids.get("folders"))), 201).json());
        harvest("subscriptions", expect(api.post("/api/v1/subscriptions", bearer, Map.of("group_id",
                ids.get("groups").getFirst())), 201).json());
        harvest("items", expect(api.post("/api/v1/posts", other.token(), Map.of("text", "Hello, fuzz")), 200).json());
        JsonNode mine = expect(api.post("/api/v1/posts", bearer, Map.of("text", "Mine", "tags", List.of("fuzz"))), 200).json();
        harvest("items", mine);
        harvest("posts", mine);
        harvest("items", expect(api.post("/api/v1/groups/" + ids.get("groups").getFirst() + "/posts", bearer,
                Map.of("text", "In the group")), 200).json());
        harvest("comments", expect(api.post("/api/v1/items/" + ids.get("items").getFirst() + "/comments", bearer,
                Map.of("text", "A comment")), 201).json());
        ids.put("usernames", new ArrayList<>(List.of(other.username(), username)));
        assertThat(failures).as("setting up").isEmpty();

        List<String[]> operations = new ArrayList<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                String method = operation.getKey().toUpperCase();
                if (path.getKey().startsWith("/api/") && !SKIPPED.contains(method + " " + path.getKey())
                        && Set.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(method)) {
                    operations.add(new String[] {method, path.getKey()});
                }
            }
        }
        // Deletions in the last round only, and last in it, so that what they remove served the rest first.
        operations.sort((a, b) -> Boolean.compare(a[0].equals("DELETE"), b[0].equals("DELETE")));
        int calls = 0;
        for (int round = 0; round < ROUNDS; round++) {
            for (String[] operation : operations) {
                if (operation[0].equals("DELETE") && round < ROUNDS - 1) {
                    continue;
                }
                JsonNode spec = document.path("paths").path(operation[1]).path(operation[0].toLowerCase());
                calls += call(api, contract, bearer, operation[0], operation[1], spec, document);
            }
        }
        System.out.printf("Stateful API fuzz: %d operations, %d calls; statuses %s; ids %s%n", operations.size(), calls,
                statuses, ids.keySet());
        assertThat(operations.size()).isGreaterThanOrEqualTo(40);
        assertThat(failures).as(failures.size() + " failures").isEmpty();
    }

    /** One generated request of the operation, then the next links its answer gives (at most 3); the count sent. */
    private int call(ApiClient api, ResponseContract contract, String bearer, String method, String template, JsonNode spec,
            JsonNode document) {
        StringBuilder path = new StringBuilder();
        Matcher variable = VARIABLE.matcher(template);
        while (variable.find()) {
            variable.appendReplacement(path, Matcher.quoteReplacement(pathValue(template, variable.group(1))));
        }
        variable.appendTail(path);
        StringBuilder query = new StringBuilder();
        for (JsonNode parameter : spec.path("parameters")) {
            if (parameter.path("in").asString("").equals("query") && (parameter.path("required").asBoolean() || random.nextBoolean())) {
                String value = queryValue(parameter.path("name").asString(), parameter.path("schema"));
                if (value != null) {
                    query.append(query.isEmpty() ? "?" : "&").append(parameter.path("name").asString()).append('=')
                            .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
                }
            }
        }
        HttpRequest.Builder request = api.builder(path + query.toString(), bearer);
        String ref = spec.path("requestBody").path("content").path("application/json").path("schema").path("$ref").asString("");
        if (!ref.isEmpty()) {
            String schemaName = ref.substring(ref.lastIndexOf('/') + 1);
            Object body = body(document.path("components").path("schemas").path(schemaName), contract, schemaName);
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        String label = method + " " + path + query;
        ApiResponse answer = sent(api, request, label);
        int calls = 1;
        for (int page = 0; answer != null && page < 3; page++) {
            Matcher next = NEXT.matcher(String.join(",", answer.headers("Link")));
            if (!next.find()) {
                break;
            }
            URI link = URI.create(next.group(1));
            String relative = link.getRawPath() + (link.getRawQuery() == null ? "" : "?" + link.getRawQuery());
            answer = sent(api, api.builder(relative, bearer).GET(), "GET " + relative + " (next of " + label + ")");
            calls++;
        }
        return calls;
    }

    private @Nullable ApiResponse sent(ApiClient api, HttpRequest.Builder request, String label) {
        ApiResponse answer;
        try {
            answer = api.send(request);
        } catch (AssertionError departure) {
            failures.add(label + ": " + departure.getMessage());
            return null;
        }
        statuses.merge(answer.status(), 1, Integer::sum);
        if (answer.status() >= 500) {
            failures.add(label + ": " + answer.status() + " " + answer.body());
        } else if (answer.status() < 300 && answer.contentType() != null && answer.contentType().startsWith("application/json")) {
            JsonNode json = answer.json();
            String feature = ApiContract.feature(request.build().uri().getPath());
            for (JsonNode element : json.isArray() ? json : List.of(json)) {
                harvest(feature, element);
            }
        }
        return answer;
    }

    private ApiResponse expect(ApiResponse answer, int status) {
        if (answer.status() != status && !(status == 200 && answer.status() == 201) && !(status == 201 && answer.status() == 200)) {
            failures.add("setting up: expected " + status + ", got " + answer);
        }
        return answer;
    }

    /** Keeps the ids an answer names: its own under the feature, its source's and item's under theirs. */
    private void harvest(String feature, JsonNode answer) {
        if (answer.path("id").isString() && !answer.path("id").asString().equals(ownTokenId)) {
            List<String> known = ids.computeIfAbsent(feature, f -> new ArrayList<>());
            if (!known.contains(answer.path("id").asString()) && known.size() < 20) {
                known.add(answer.path("id").asString());
            }
        }
        if (answer.path("source").isObject()) {
            harvest("sources", answer.path("source"));
        }
        if (answer.path("source_id").isString()) {
            List<String> sources = ids.computeIfAbsent("sources", f -> new ArrayList<>());
            if (!sources.contains(answer.path("source_id").asString())) {
                sources.add(answer.path("source_id").asString());
            }
        }
    }

    private String pathValue(String template, String name) {
        if (name.equals("username")) {
            return pick("usernames", "nobody");
        }
        if (name.equals("source_id")) {
            return pick("sources", "1");
        }
        return pick(ApiContract.feature(template), "1");
    }

    private String pick(String kind, String otherwise) {
        List<String> known = ids.getOrDefault(kind, List.of());
        // Now and then an id that names nothing, or another kind's: the 404 must be declared too.
        if (known.isEmpty() || random.nextInt(8) == 0) {
            return random.nextBoolean() ? otherwise : pick("items", "1");
        }
        return known.get(random.nextInt(known.size()));
    }

    private @Nullable String queryValue(String name, JsonNode schema) {
        return switch (name) {
            case "limit" -> String.valueOf(1 + random.nextInt(random.nextBoolean() ? 3 : 100));
            case "max_id", "since_id", "min_id" -> pick("items", "1");
            case "source_id" -> pick("sources", "1");
            case "folder_id" -> pick("folders", "1");
            case "q" -> random.nextBoolean() ? "fuzz" : "hello mine";
            case "tag" -> "fuzz";
            case "media" -> random.nextBoolean() ? "text" : "text,link";
            case "unread" -> String.valueOf(random.nextBoolean());
            case "cursor" -> null;
            default -> schema.path("enum").isArray() && !schema.path("enum").isEmpty()
                    ? schema.path("enum").get(random.nextInt(schema.path("enum").size())).asString() : "fuzz";
        };
    }

    /** A body its schema accepts (falling back to a plainer one if a random choice does not), with known ids. */
    private Object body(JsonNode schema, ResponseContract contract, String schemaName) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Map<String, Object> body = new LinkedHashMap<>();
            List<String> required = new ArrayList<>();
            schema.path("required").forEach(name -> required.add(name.asString()));
            String oneOf = null;
            if (schema.path("oneOf").isArray()) {
                JsonNode branch = schema.path("oneOf").get(random.nextInt(schema.path("oneOf").size()));
                oneOf = branch.path("required").path(0).asString();
            }
            for (var property : schema.path("properties").properties()) {
                String name = property.getKey();
                boolean branchName = schema.path("oneOf").isArray() && schema.path("oneOf").toString().contains("\"" + name + "\"");
                if (branchName ? !name.equals(oneOf) : !required.contains(name) && random.nextBoolean()) {
                    continue;
                }
                body.put(name, value(name, property.getValue(), attempt));
            }
            if (contract.schemaViolations(schemaName, JSON.valueToTree(body)).isEmpty()) {
                return body;
            }
        }
        failures.add(schemaName + ": no body its schema accepts after 5 tries");
        return Map.of();
    }

    private @Nullable Object value(String name, JsonNode schema, int attempt) {
        Set<String> types = new java.util.TreeSet<>();
        if (schema.path("type").isString()) {
            types.add(schema.path("type").asString());
        }
        schema.path("type").forEach(type -> types.add(type.asString()));
        if (schema.path("enum").isArray() && !schema.path("enum").isEmpty()) {
            JsonNode choice = schema.path("enum").get(random.nextInt(schema.path("enum").size()));
            return choice.isNull() ? null : choice.asString();
        }
        if (types.contains("boolean")) {
            return random.nextBoolean();
        }
        if (types.contains("integer")) {
            return random.nextInt(100);
        }
        if (types.contains("array")) {
            List<Object> items = new ArrayList<>();
            int count = Math.max(schema.path("minItems").asInt(0), 1 + random.nextInt(2));
            for (int i = 0; i < count; i++) {
                Object item = value(name.endsWith("s") ? name.substring(0, name.length() - 1) : name, schema.path("items"), attempt);
                if (!items.contains(item)) {
                    items.add(item);
                }
            }
            return items;
        }
        String pattern = schema.path("pattern").asString("");
        if (pattern.equals(Ids.PATTERN) || pattern.equals(Ids.OPTIONAL_PATTERN)) {
            return switch (name) {
                case "folder_id", "folder_ids", "folder_id_" -> pick("folders", "1");
                case "source_id" -> pick("sources", "1");
                case "group_id" -> pick("groups", "1");
                default -> pick("items", "1");
            };
        }
        return switch (name) {
            case "url" -> "http://127.0.0.2:9/feed.xml";
            case "user", "username" -> pick("usernames", "nobody");
            case "redirect_uri" -> "https://app.example/cb";
            case "email" -> "fuzz" + random.nextInt(1000) + "@example.com";
            case "password", "new_password", "current_password" -> "stateful password";
            default -> {
                String word = attempt > 2 ? "Fuzz" : WORDS.get(random.nextInt(WORDS.size()));
                int max = schema.path("maxLength").asInt(Integer.MAX_VALUE);
                int min = schema.path("minLength").asInt(0);
                String text = word.length() < min ? word + "x".repeat(min - word.length()) : word;
                yield text.length() > max ? text.substring(0, max) : text;
            }
        };
    }
}
