package dev.tributary.api.contract;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hostile requests for one operation of the OpenAPI document, derived from what the document
 * says about it (path and query parameters, request body schema), so that operations added later
 * are covered without a line of test code: bad path ids, query values of the wrong type, and for
 * bodies malformed JSON, wrong JSON types, unknown fields, huge strings, wrong property types,
 * invalid enum values, oversize bodies and wrong content types.
 */
final class HostileRequests {

    /** A request to send and, for some cases, the one status it must get. */
    record Probe(String operation, String name, String method, String path, @Nullable byte[] body,
            @Nullable String contentType, @Nullable Integer expected) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern PATH_PARAM = Pattern.compile("\\{([^}]+)}");
    private static final String NO_SUCH_ID = "999999999999999999";
    private static final String HUGE = "h".repeat(100 * 1024);
    private static final int OVERSIZE = 3 * 1024 * 1024;
    private static final int MAX_PROPERTIES = 25;
    private static final List<String> BAD_PATH_VALUES = List.of("abc", "9".repeat(40), "-1", "0", NO_SUCH_ID, "1.5",
            "%E2%98%83", "%27%22%3Cscript%3E", "a".repeat(2000));
    private static final List<String> BAD_QUERY_VALUES = List.of("not-a-number", "-1", "0", "99999999999999999999999",
            "", "NOT_A_VALUE,%00", "x".repeat(4000), "true", "1e309");

    private final JsonNode document;

    HostileRequests(JsonNode document) {
        this.document = document;
    }

    List<Probe> of(String method, String path, JsonNode operation) {
        String label = method + " " + path;
        List<Probe> probes = new ArrayList<>();
        List<String> pathParams = pathParams(path);
        String plain = fill(path, Map.of());
        probes.add(new Probe(label, "plain", method, plain, null, null, null));
        for (String param : pathParams) {
            for (String bad : BAD_PATH_VALUES) {
                probes.add(new Probe(label, "path " + param + "=" + abbreviate(bad), method, fill(path, Map.of(param, bad)),
                        null, null, null));
            }
        }
        for (JsonNode parameter : operation.path("parameters")) {
            if (parameter.path("in").asString().equals("query")) {
                String name = parameter.path("name").asString();
                for (String bad : BAD_QUERY_VALUES) {
                    probes.add(new Probe(label, "query " + name + "=" + abbreviate(bad), method,
                            plain + "?" + name + "=" + bad, null, null, null));
                }
            }
        }
        probes.add(new Probe(label, "unknown query parameter", method, plain + "?fuzz_unknown=1&limit=abc", null, null, null));
        probes.add(new Probe(label, "query parameter without a name", method, plain + "?=", null, null, null));
        probes.add(new Probe(label, "query parameter without a name among others", method, plain + "?limit=5&=x&=", null, null,
                null));
        JsonNode body = operation.path("requestBody");
        if (!body.isMissingNode() || method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            probes.addAll(bodies(label, method, plain, body));
        }
        return probes;
    }

    private List<Probe> bodies(String label, String method, String path, JsonNode requestBody) {
        JsonNode content = requestBody.path("content");
        boolean json = content.has("application/json") || requestBody.isMissingNode();
        JsonNode schema = resolve(content.path("application/json").path("schema"));
        String type = json ? "application/json" : content.propertyNames().stream().findFirst().orElse("application/json");
        List<Probe> probes = new ArrayList<>();
        Map<String, String> raw = new LinkedHashMap<>();
        raw.put("malformed JSON", "{\"a\": ");
        raw.put("truncated string", "{\"a\": \"unterminated");
        raw.put("JSON array", "[]");
        raw.put("JSON number", "42");
        raw.put("JSON string", "\"text\"");
        raw.put("JSON null", "null");
        raw.put("JSON true", "true");
        raw.put("trailing tokens", "{} {}");
        raw.put("deep nesting", "[".repeat(5000) + "]".repeat(5000));
        raw.put("empty body", "");
        raw.forEach((name, text) -> probes.add(body(label, name, method, path, text.getBytes(StandardCharsets.UTF_8), type, null)));
        probes.add(body(label, "not UTF-8", method, path, new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'},
                type, null));
        probes.add(body(label, "oversize body (3 MB)", method, path, oversize(), type, 413));
        if (!requestBody.isMissingNode() && !content.has("*/*")) {
            probes.add(body(label, "wrong content type", method, path, "{}".getBytes(StandardCharsets.UTF_8),
                    "application/x-fuzz", 415));
            probes.add(body(label, "no content type", method, path, "{}".getBytes(StandardCharsets.UTF_8), null, null));
        }
        if (json && schema.isObject()) {
            probes.addAll(schemaCases(label, method, path, schema));
        }
        return probes;
    }

    /** Cases from the body's schema: a plausible body, then one property at a time made hostile. */
    private List<Probe> schemaCases(String label, String method, String path, JsonNode schema) {
        List<Probe> probes = new ArrayList<>();
        ObjectNode sample = sampleObject(schema, 0);
        probes.add(jsonBody(label, "plausible body", method, path, sample));
        ObjectNode unknown = sample.deepCopy();
        unknown.put("fuzz_unknown_field", 1);
        probes.add(jsonBody(label, "unknown field", method, path, unknown));
        int count = 0;
        for (var property : schema.path("properties").properties()) {
            if (count++ == MAX_PROPERTIES) {
                break;
            }
            String name = property.getKey();
            JsonNode propertySchema = resolve(property.getValue());
            probes.add(jsonBody(label, name + " huge string", method, path, with(sample, name, JSON.getNodeFactory().stringNode(HUGE))));
            probes.add(jsonBody(label, name + " wrong type", method, path, with(sample, name, wrongType(propertySchema))));
            for (JsonNode scalar : wrongScalars(propertySchema)) {
                // Jackson's lenient defaults would turn these into "false", "12345", 1…: the contract says 400.
                probes.add(jsonBody(label, name + " wrong scalar " + scalar, method, path, with(sample, name, scalar), 400));
            }
            probes.add(jsonBody(label, name + " null", method, path, with(sample, name, JSON.getNodeFactory().nullNode())));
            if (propertySchema.has("enum") || resolve(propertySchema.path("items")).has("enum")) {
                JsonNode invalid = propertySchema.has("enum") ? JSON.getNodeFactory().stringNode("NOT_A_VALUE")
                        : JSON.createArrayNode().add("NOT_A_VALUE");
                probes.add(jsonBody(label, name + " invalid enum value", method, path, with(sample, name, invalid)));
            }
            if (type(propertySchema).equals("array")) {
                ArrayNode many = JSON.createArrayNode();
                for (int i = 0; i < 10_000; i++) {
                    many.add(sample(resolve(propertySchema.path("items")), 1));
                }
                probes.add(jsonBody(label, name + " 10000 elements", method, path, with(sample, name, many)));
            }
        }
        return probes;
    }

    private ObjectNode sampleObject(JsonNode schema, int depth) {
        ObjectNode object = JSON.createObjectNode();
        for (var property : schema.path("properties").properties()) {
            object.set(property.getKey(), depth > 3 ? JSON.getNodeFactory().nullNode()
                    : sample(resolve(property.getValue()), depth + 1, property.getKey()));
        }
        return object;
    }

    private JsonNode sample(JsonNode schema, int depth) {
        return sample(schema, depth, "");
    }

    private JsonNode sample(JsonNode schema, int depth, String name) {
        if (schema.has("enum")) {
            return schema.path("enum").path(0);
        }
        return switch (type(schema)) {
            case "object" -> sampleObject(schema, depth);
            case "array" -> JSON.createArrayNode().add(sample(resolve(schema.path("items")), depth + 1, name));
            case "integer" -> JSON.getNodeFactory().numberNode(1);
            case "number" -> JSON.getNodeFactory().numberNode(1.5);
            case "boolean" -> JSON.getNodeFactory().booleanNode(true);
            default -> JSON.getNodeFactory().stringNode(sampleString(schema, name));
        };
    }

    /**
     * Urls point at a closed local port, so an endpoint that fetches them fails at once; on
     * 127.0.0.2, because the crawler's politeness slows a host and address that refuse connections,
     * and the test servers of every other test in the same app context are on 127.0.0.1.
     */
    private static String sampleString(JsonNode schema, String name) {
        String format = schema.path("format").asString();
        if (format.equals("uri") || name.contains("url") || name.contains("uri")) {
            return "http://127.0.0.2:9/fuzz";
        }
        return switch (format) {
            case "date-time" -> Instant.now().toString();
            case "email" -> "fuzz@example.invalid";
            default -> name.endsWith("id") ? NO_SUCH_ID : "fuzz_value";
        };
    }

    private JsonNode wrongType(JsonNode schema) {
        return switch (type(schema)) {
            case "string" -> JSON.createObjectNode().put("nested", 1);
            case "array" -> JSON.getNodeFactory().stringNode("not an array");
            case "object" -> JSON.createArrayNode().add(1);
            case "boolean" -> JSON.getNodeFactory().stringNode("yes");
            default -> JSON.getNodeFactory().stringNode("not a number");
        };
    }

    private static List<JsonNode> wrongScalars(JsonNode schema) {
        var nodes = JSON.getNodeFactory();
        return switch (type(schema)) {
            case "string" -> List.of(nodes.booleanNode(false), nodes.numberNode(12345), nodes.numberNode(1.5));
            case "integer" -> List.of(nodes.stringNode("1"), nodes.booleanNode(true), nodes.numberNode(1.5));
            case "boolean" -> List.of(nodes.stringNode("true"), nodes.numberNode(1));
            default -> List.of();
        };
    }

    private static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (!t.asString().equals("null")) {
                    return t.asString();
                }
            }
        }
        return type.isString() ? type.asString() : schema.has("properties") ? "object" : "string";
    }

    /** Follows a {@code $ref} (and a single-element allOf/oneOf/anyOf) to the schema it names. */
    private JsonNode resolve(JsonNode schema) {
        for (int hops = 0; hops < 10; hops++) {
            if (schema.has("$ref")) {
                String ref = schema.path("$ref").asString();
                schema = document.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
            } else if (schema.path("allOf").size() == 1 || schema.path("oneOf").size() > 0 || schema.path("anyOf").size() > 0) {
                JsonNode list = schema.has("allOf") ? schema.path("allOf") : schema.has("oneOf") ? schema.path("oneOf") : schema.path("anyOf");
                schema = list.path(0);
            } else {
                return schema;
            }
        }
        return schema;
    }

    private static ObjectNode with(ObjectNode sample, String name, JsonNode value) {
        ObjectNode copy = sample.deepCopy();
        copy.set(name, value);
        return copy;
    }

    private static Probe jsonBody(String label, String name, String method, String path, JsonNode body) {
        return jsonBody(label, name, method, path, body, null);
    }

    private static Probe jsonBody(String label, String name, String method, String path, JsonNode body,
            @Nullable Integer expected) {
        return body(label, name, method, path, JSON.writeValueAsBytes(body), "application/json", expected);
    }

    private static Probe body(String label, String name, String method, String path, byte[] body,
            @Nullable String contentType, @Nullable Integer expected) {
        return new Probe(label, name, method, path, body, contentType, expected);
    }

    private static byte[] oversize() {
        byte[] body = new byte[OVERSIZE];
        java.util.Arrays.fill(body, (byte) ' ');
        body[0] = '{';
        body[OVERSIZE - 1] = '}';
        return body;
    }

    private static List<String> pathParams(String path) {
        List<String> names = new ArrayList<>();
        Matcher matcher = PATH_PARAM.matcher(path);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /** The path with every parameter set: to {@code values}' entry if it has one, else an id that names nothing. */
    private static String fill(String path, Map<String, String> values) {
        return PATH_PARAM.matcher(path).replaceAll(match -> Matcher.quoteReplacement(values.getOrDefault(match.group(1), NO_SUCH_ID)));
    }

    private static String abbreviate(String value) {
        return value.length() > 24 ? value.substring(0, 12) + "…(" + value.length() + ")" : value;
    }
}
