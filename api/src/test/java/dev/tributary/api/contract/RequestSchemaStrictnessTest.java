package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ResponseContract;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.web.ExactlyOneOf;
import dev.tributary.api.web.NonBlank;
import dev.tributary.api.web.WireId;
import jakarta.validation.Constraint;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Request schemas exactly as strict as the server (issue 49). Both ways: every constraint the
 * validator runs on a request record is stated in the record's schema (read from the
 * annotations of every JSON body the handlers take), and every body the schema refuses, varied
 * one property at a time around a valid one, is a 400 (or a 422 where the domain words it, as for
 * names too long once cleaned), while every variation it allows is not a 400.
 */
@ApiTest
class RequestSchemaStrictnessTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The constraints the schema is checked for; any other on a request record fails the test until it is taught here. */
    private static final Set<Class<? extends Annotation>> KNOWN = Set.of(NotNull.class, Size.class, Pattern.class, Email.class,
            NonBlank.class, WireId.class);
    private static final List<Object> STRINGS = List.of("", " ", "\t\u3000\u2028", "\u0001", "\uFFFE", "\u00A0", "a", "A b",
            "0", "01", "1", "x1", "9223372036854775807", "9223372036854775808", "drop", "DROP", "read", "text");
    /**
     * Refusals the schema cannot state, as "Schema.property": a value it allows that the server refuses with a 400.
     * Each is documented on the field.
     */
    private static final Map<String, String> UNSTATED = Map.of(
            "NewApp.client_name", "control and formatting characters (\\u0001 … is blank, but U+0085 or U+200B is not)",
            "NewApp.redirect_uris", "what RedirectUris refuses: not an absolute https (or loopback http) URI",
            "PostRequest.url", "not an absolute http or https URL",
            "RuleRequest.pattern", "a regular expression RE2 refuses or that costs too much",
            "RulePatch.pattern", "a regular expression RE2 refuses or that costs too much",
            "RuleRequest.source_id", "a source the caller does not follow", "RuleRequest.folder_id", "not one of the caller's folders",
            "RulePatch.source_id", "a source the caller does not follow", "RulePatch.folder_id", "not one of the caller's folders");

    /** Request bodies of operations only a token with the account scope may call. */
    private static final Set<String> ACCOUNT_SCOPED = Set.of("PasswordChange", "LinkRequest", "ConfirmRequest", "DeliveryRequest");

    @LocalServerPort int port;
    @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;

    @Test
    void everyConstraintTheValidatorRunsIsStatedInTheSchema() {
        JsonNode document = new ApiClient(port).get("/v3/api-docs", null).json();
        JsonNode schemas = document.path("components").path("schemas");
        Set<Class<?>> bodies = new TreeSet<>((a, b) -> a.getName().compareTo(b.getName()));
        for (Map.Entry<RequestMappingInfo, HandlerMethod> mapping : mappings.getHandlerMethods().entrySet()) {
            boolean documented = mapping.getKey().getPatternValues().stream().anyMatch(document.path("paths")::has);
            for (MethodParameter parameter : mapping.getValue().getMethodParameters()) {
                if (documented && parameter.hasParameterAnnotation(RequestBody.class) && parameter.getParameterType().isRecord()) {
                    bodies.add(parameter.getParameterType());
                }
            }
        }
        assertThat(bodies).as("the request records of the documented operations").hasSizeGreaterThanOrEqualTo(15);

        List<String> missing = new ArrayList<>();
        for (Class<?> record : bodies) {
            JsonNode schema = schemas.path(record.getSimpleName());
            assertThat(schema.isObject()).as(record.getSimpleName() + " in components/schemas").isTrue();
            Set<String> required = new TreeSet<>();
            schema.path("required").forEach(name -> required.add(name.asString()));
            for (RecordComponent component : record.getRecordComponents()) {
                String name = snakeCase(component.getName());
                JsonNode property = schema.path("properties").path(name);
                String where = record.getSimpleName() + "." + name;
                List<Annotation> declared = constraints(component);
                if (declared.stream().anyMatch(a -> a instanceof NotNull)) {
                    if (!required.contains(name) || types(property).contains("null")) {
                        missing.add(where + ": @NotNull, but the schema lets it be left out or null");
                    }
                }
                declared.forEach(annotation -> check(where, annotation, property, component.getType(), missing));
                if (component.getAnnotatedType() instanceof AnnotatedParameterizedType list) {
                    AnnotatedType element = list.getAnnotatedActualTypeArguments()[0];
                    for (Annotation annotation : element.getAnnotations()) {
                        if (annotation instanceof NotNull) {
                            if (types(property.path("items")).contains("null")) {
                                missing.add(where + "[]: @NotNull, but the schema lets an element be null");
                            }
                        } else if (isConstraint(annotation)) {
                            check(where + "[]", annotation, property.path("items"), String.class, missing);
                        }
                    }
                }
            }
            ExactlyOneOf one = record.getAnnotation(ExactlyOneOf.class);
            if (one != null) {
                List<String> branches = new ArrayList<>();
                schema.path("oneOf").forEach(branch -> branches.add(branch.path("required").path(0).asString()));
                if (!branches.equals(Arrays.stream(one.value()).map(RequestSchemaStrictnessTest::snakeCase).toList())) {
                    missing.add(record.getSimpleName() + ": @ExactlyOneOf" + List.of(one.value()) + ", but oneOf requires " + branches);
                }
            }
        }
        assertThat(missing).as("constraints the server runs that the schema does not state").isEmpty();
    }

    @Test
    void aBodyTheSchemaRefusesIsA400AndOneItAllowsIsNot() {
        ApiClient api = new ApiClient(port);
        ApiResponse documentAnswer = api.get("/v3/api-docs", null);
        JsonNode document = documentAnswer.json();
        ResponseContract contract = new ResponseContract(documentAnswer.body());
        TestUser user = api.newUser("strict");
        TestUser other = api.newUser("strictother");
        String accountToken = api.createToken(user.username(), user.password(), "account", "read", "write", "account");
        String folder = api.post("/api/v1/folders", user.token(), Map.of("name", "Strict")).json().path("id").asString();
        String group = api.post("/api/v1/groups", user.token(), Map.of("name", "Strict")).json().path("id").asString();
        String rule = api.post("/api/v1/rules", user.token(), Map.of("action", "drop", "pattern", "zzz")).json().path("id")
                .asString();
        String subscription = api.post("/api/v1/subscriptions", user.token(), Map.of("user", other.username())).json()
                .path("id").asString();
        String item = api.post("/api/v1/posts", user.token(), Map.of("text", "Strict")).json().path("id").asString();
        Map<String, String> ids = Map.of("folders", folder, "groups", group, "rules", rule, "subscriptions", subscription,
                "items", item);

        // A valid body of each request schema: the base every variation changes one property of.
        Map<String, Map<String, Object>> valid = new LinkedHashMap<>();
        valid.put("Registration", Map.of("username", "strictnew", "password", "correct horse"));
        valid.put("NewApp", Map.of("client_name", "Strict", "redirect_uris", List.of("https://app.example/callback"),
                "scopes", List.of("read")));
        valid.put("FolderName", Map.of("name", "Strict two"));
        valid.put("NewGroup", Map.of("name", "Strict two"));
        valid.put("GroupChange", Map.of("open", true));
        valid.put("NewMember", Map.of("username", other.username()));
        valid.put("PostRequest", Map.of("text", "Strict"));
        valid.put("NewComment", Map.of("text", "Strict"));
        valid.put("Marker", Map.of("up_to_id", item));
        valid.put("AttachRequest", Map.of("url", "http://127.0.0.2:9/feed.xml"));
        valid.put("PasswordChange", Map.of("current_password", user.password(), "new_password", user.password()));
        valid.put("RuleRequest", Map.of("action", "drop", "pattern", "zzz"));
        valid.put("RulePatch", Map.of("pattern", "yyy"));
        valid.put("SubscribeRequest", Map.of("user", other.username()));
        valid.put("SubscriptionPatch", Map.of("title", "Strict"));
        valid.put("NewToken", Map.of("name", "Strict", "scopes", List.of("read")));
        // XMPP push is off on this server: a body the schema allows gets 404 after validation, one it refuses 400.
        valid.put("LinkRequest", Map.of("address", "strict@xmpp.example"));
        valid.put("ConfirmRequest", Map.of("code", "ABCDEFGH"));
        valid.put("DeliveryRequest", Map.of("deliver", "home"));

        List<String> failures = new ArrayList<>();
        Map<String, Integer> sent = new TreeMap<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                String ref = operation.getValue().path("requestBody").path("content").path("application/json").path("schema")
                        .path("$ref").asString("");
                if (ref.isEmpty()) {
                    continue;
                }
                String schemaName = ref.substring(ref.lastIndexOf('/') + 1);
                Map<String, Object> base = valid.get(schemaName);
                assertThat(base).as("a valid " + schemaName + " for this test to vary").isNotNull();
                assertThat(contract.schemaViolations(schemaName, JSON.valueToTree(base))).as(schemaName + " base").isEmpty();
                String method = operation.getKey().toUpperCase();
                String target = concrete(path.getKey(), ids);
                // Changing the password is left to PasswordApiTest: a variation the schema allows would change it.
                boolean sendAllowed = !schemaName.equals("PasswordChange");
                for (Map.Entry<String, @Nullable Object> variation : variations(document.path("components").path("schemas")
                        .path(schemaName), base).entrySet()) {
                    JsonNode body = variation.getValue() == null ? null : JSON.valueToTree(variation.getValue());
                    List<String> refusals = body == null ? List.of("not JSON") : contract.schemaViolations(schemaName, body);
                    if (refusals.isEmpty() && !sendAllowed) {
                        continue;
                    }
                    String token = ACCOUNT_SCOPED.contains(schemaName) ? accountToken : user.token();
                    ApiResponse answer = send(api, method, target, token, user, schemaName, body);
                    sent.merge(schemaName, 1, Integer::sum);
                    String label = method + " " + path.getKey() + " " + variation.getKey();
                    if (answer.status() >= 500) {
                        failures.add(label + ": " + answer.status());
                    } else if (!refusals.isEmpty() && answer.status() != 400 && answer.status() != 422) {
                        failures.add(label + ": the schema refuses it (" + refusals.getFirst() + ") but the server answered "
                                + answer.status());
                    } else if (refusals.isEmpty() && answer.status() == 400
                            && !UNSTATED.containsKey(schemaName + "." + field(variation.getKey()))) {
                        failures.add(label + ": the schema allows it but the server refused it: " + answer.body());
                    }
                }
            }
        }
        System.out.printf("Request schema strictness: %s%n", sent);
        assertThat(sent.keySet()).as("every request schema was varied").containsAll(valid.keySet());
        assertThat(failures).as(failures.size() + " disagreements between the schema and the server").isEmpty();
    }

    private static ApiResponse send(ApiClient api, String method, String path, String token, TestUser user, String schemaName,
            @Nullable JsonNode body) {
        HttpRequest.Builder request = api.builder(path, schemaName.equals("NewToken") ? null : token)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "{" : JSON.writeValueAsString(body)));
        if (schemaName.equals("NewToken")) {
            request.header("Authorization", ApiClient.basic(user.username(), user.password()));
        }
        return api.send(request);
    }

    /**
     * Bodies that differ from {@code base} in one property, keyed by what changed: left out, null, each
     * string of a fixed set, strings at and past each length bound, lists at and past their item bounds,
     * and for oneOf none and two of its branches. Which of them the schema refuses is the schema's say.
     */
    private static Map<String, @Nullable Object> variations(JsonNode schema, Map<String, Object> base) {
        Map<String, @Nullable Object> bodies = new LinkedHashMap<>();
        bodies.put("{not JSON}", null);
        bodies.put("{unknown field}", with(base, "unknown_field", "x"));
        for (var property : schema.path("properties").properties()) {
            String name = property.getKey();
            JsonNode spec = property.getValue();
            Map<String, Object> without = new LinkedHashMap<>(base);
            without.remove(name);
            bodies.put(name + " left out", without);
            bodies.put(name + "=null", with(base, name, null));
            if (types(spec).contains("boolean")) {
                bodies.put(name + "=\"true\"", with(base, name, "true"));
                continue;
            }
            if (types(spec).contains("array")) {
                Object item = base.get(name) instanceof List<?> list && !list.isEmpty() ? list.getFirst() : "1";
                bodies.put(name + "=[]", with(base, name, List.of()));
                bodies.put(name + "=\"x\"", with(base, name, "x"));
                if (spec.has("maxItems")) {
                    int max = spec.path("maxItems").asInt();
                    bodies.put(name + "=" + max + " items", with(base, name, java.util.Collections.nCopies(max, item)));
                    bodies.put(name + "=" + (max + 1) + " items", with(base, name, java.util.Collections.nCopies(max + 1, item)));
                }
                List<Object> items = new ArrayList<>(STRINGS);
                items.add(null);
                for (Object value : items) {
                    List<Object> one = new ArrayList<>();
                    one.add(value);
                    bodies.put(name + "=[" + shown(value) + "]", with(base, name, one));
                }
                continue;
            }
            List<Object> values = new ArrayList<>(STRINGS);
            values.add(5);
            Object current = base.get(name);
            String seed = current instanceof String text && !text.isEmpty() ? text.substring(0, 1) : "a";
            if (spec.has("maxLength")) {
                int max = spec.path("maxLength").asInt();
                values.add(seed.repeat(max));
                values.add(seed.repeat(max + 1));
            }
            if (spec.has("minLength") && spec.path("minLength").asInt() > 1) {
                int min = spec.path("minLength").asInt();
                values.add(seed.repeat(min));
                values.add(seed.repeat(min - 1));
            }
            for (Object value : values) {
                bodies.put(name + "=" + shown(value), with(base, name, value));
            }
        }
        if (schema.has("oneOf")) {
            Map<String, Object> none = new LinkedHashMap<>(base);
            schema.path("oneOf").forEach(branch -> none.remove(branch.path("required").path(0).asString()));
            bodies.put("{none of oneOf}", none);
            Map<String, Object> two = new LinkedHashMap<>(base);
            two.put(schema.path("oneOf").path(1).path("required").path(0).asString(), "1");
            bodies.put("{two of oneOf}", two);
        }
        return bodies;
    }

    private static Map<String, Object> with(Map<String, Object> base, String name, @Nullable Object value) {
        Map<String, Object> body = new LinkedHashMap<>(base);
        body.put(name, value);
        return body;
    }

    private static String shown(@Nullable Object value) {
        if (!(value instanceof String text)) {
            return String.valueOf(value);
        }
        if (text.length() > 12) {
            return "\"" + text.charAt(0) + "\"×" + text.length();
        }
        StringBuilder shown = new StringBuilder("\"");
        text.chars().forEach(c -> shown.append(c < 0x21 || c > 0x7e ? String.format("\\u%04X", c) : String.valueOf((char) c)));
        return shown.append('"').toString();
    }

    /** The property a variation's key names ("text=…" or "text left out"). */
    private static String field(String key) {
        int end = 0;
        while (end < key.length() && (Character.isLetterOrDigit(key.charAt(end)) || key.charAt(end) == '_')) {
            end++;
        }
        return key.substring(0, end);
    }

    private static String concrete(String path, Map<String, String> ids) {
        String feature = path.replaceFirst("^/api/v1/([^/]+)/.*$", "$1");
        return path.replace("{id}", ids.getOrDefault(feature, "1"));
    }

    private static void check(String where, Annotation annotation, JsonNode property, Class<?> type, List<String> missing) {
        boolean text = CharSequence.class.isAssignableFrom(type);
        switch (annotation) {
            case NotNull notNull -> {
                // checked against required by the caller
            }
            case Size size when text -> {
                expect(where, "@Size(min = " + size.min() + ")", size.min() == 0 || property.path("minLength").asInt() >= size.min(),
                        missing);
                expect(where, "@Size(max = " + size.max() + ")", size.max() == Integer.MAX_VALUE
                        || property.path("maxLength").asInt(-1) == size.max(), missing);
            }
            case Size size -> {
                expect(where, "@Size(min = " + size.min() + ")", size.min() == 0 || property.path("minItems").asInt() >= size.min(),
                        missing);
                expect(where, "@Size(max = " + size.max() + ")", size.max() == Integer.MAX_VALUE
                        || property.path("maxItems").asInt(-1) == size.max(), missing);
            }
            case Pattern pattern -> expect(where, "@Pattern(" + pattern.regexp() + ")",
                    property.path("pattern").asString("").equals(pattern.regexp()) && pattern.regexp().startsWith("^")
                            && pattern.regexp().endsWith("$"), missing);
            case Email email -> expect(where, "@Email", property.path("format").asString("").equals("email"), missing);
            case NonBlank nonBlank -> expect(where, "@NonBlank", property.path("pattern").asString("").equals(NonBlank.PATTERN)
                    && property.path("minLength").asInt() >= 1, missing);
            case WireId id -> expect(where, "@WireId", property.path("pattern").asString("").equals(WireId.Check.pattern(id)),
                    missing);
            default -> missing.add(where + ": " + annotation.annotationType().getSimpleName()
                    + " is a constraint this test does not know how the schema states (use @NonBlank for @NotBlank)");
        }
    }

    private static void expect(String where, String constraint, boolean stated, List<String> missing) {
        if (!stated) {
            missing.add(where + ": " + constraint + " is not stated in the schema (an anchored pattern, for @Pattern)");
        }
    }

    /** The bean validation constraints on a component (they land on its field). */
    private static List<Annotation> constraints(RecordComponent component) {
        try {
            return Arrays.stream(component.getDeclaringRecord().getDeclaredField(component.getName()).getAnnotations())
                    .filter(RequestSchemaStrictnessTest::isConstraint).toList();
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isConstraint(Annotation annotation) {
        boolean constraint = annotation.annotationType().isAnnotationPresent(Constraint.class);
        if (constraint && !KNOWN.contains(annotation.annotationType())) {
            // Reported by check()'s default branch.
            return true;
        }
        return constraint;
    }

    private static Set<String> types(JsonNode property) {
        Set<String> types = new TreeSet<>();
        if (property.path("type").isString()) {
            types.add(property.path("type").asString());
        }
        property.path("type").forEach(type -> types.add(type.asString()));
        return types;
    }

    private static String snakeCase(String javaName) {
        return javaName.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
    }
}
