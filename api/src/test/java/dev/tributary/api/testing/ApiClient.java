package dev.tributary.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for API tests: JSON in and out, bearer tokens, and the usual set-up
 * (a new person with a token). Usernames are unique per run, so tests sharing a database
 * never see each other's people. Every answer to a documented {@code /api/v1} operation is checked
 * against the app's OpenAPI document ({@link ResponseContract}); one that departs fails the test.
 */
public final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final HttpClient http;
    private final String base;

    public ApiClient(int port) {
        this.base = "http://127.0.0.1:" + port;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /**
     * A client whose connections come from {@code localAddress}, another loopback address such as
     * 127.0.0.2 (all of 127/8 is this host): the server sees another client address, as it would
     * another machine's.
     */
    public ApiClient(int port, String localAddress) {
        this.base = "http://127.0.0.1:" + port;
        try {
            this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                    .localAddress(java.net.InetAddress.getByName(localAddress)).build();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(localAddress, e);
        }
    }

    public String url(String path) {
        return base + path;
    }

    public ApiResponse get(String path, @Nullable String token) {
        return send(builder(path, token).GET());
    }

    public ApiResponse delete(String path, @Nullable String token) {
        return send(builder(path, token).DELETE());
    }

    /** POSTs {@code body}: a String is sent as is (for malformed JSON), anything else as JSON. */
    public ApiResponse post(String path, @Nullable String token, @Nullable Object body) {
        return send("POST", path, token, body, "application/json");
    }

    public ApiResponse send(String method, String path, @Nullable String token, @Nullable Object body, String contentType) {
        HttpRequest.Builder request = builder(path, token);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(
                    body instanceof String raw ? raw : JSON.writeValueAsString(body)));
        }
        return send(request);
    }

    /**
     * The contract is built once at start-up, but on a 2-core CI machine running other test JVMs its
     * first fetch has taken over 30 s: waiting longer fails no assertion, timing out fails a test.
     */
    private static final Duration DOCUMENT_TIMEOUT = Duration.ofSeconds(180);

    public HttpRequest.Builder builder(String path, @Nullable String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    public ApiResponse send(HttpRequest.Builder request) {
        try {
            HttpRequest sent = request.build();
            HttpResponse<String> response = http.send(sent, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            // Only the documented API is checked; other paths (and other ports: management) never fetch the document.
            List<String> violations = !sent.uri().getPath().startsWith("/api/v1/") ? List.of()
                    : contract().violations(sent.method(), sent.uri(), response.statusCode(), response.headers().map(),
                            response.headers().firstValue("Content-Type").orElse(null), response.body());
            if (!violations.isEmpty() && !Boolean.getBoolean("contract.survey")) {
                throw new AssertionError("The answer departs from the OpenAPI document:\n" + String.join("\n", violations));
            }
            // -Dcontract.survey=true lists every departure on stderr and goes on, to see them all in one run.
            violations.forEach(violation -> System.err.println("CONTRACT " + violation));
            return new ApiResponse(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private ResponseContract contract() {
        return ResponseContract.of(base, this::document);
    }

    private String document(String url) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(DOCUMENT_TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + url + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A username no other test in this run uses. */
    public static String uniqueUsername(String prefix) {
        return (prefix + "_" + SEQUENCE.incrementAndGet() + "_" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36));
    }

    /**
     * Registers a new person and gives them a token with {@code read}, {@code write} and
     * {@code account}: the person's own token, which manages the account as their session does.
     */
    public TestUser newUser(String prefix) {
        String username = uniqueUsername(prefix);
        String password = "correct horse " + username;
        ApiResponse created = post("/api/v1/accounts", null, Map.of("username", username, "password", password));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String token = createToken(username, password, "test", "read", "write", "account");
        return new TestUser(created.json().path("id").asString(), username, password, token);
    }

    /** A personal access token for the account, by HTTP Basic. */
    public String createToken(String username, String password, String name, String... scopes) {
        ApiResponse response = send(builder("/api/v1/tokens", null).header("Authorization", basic(username, password))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("name", name, "scopes", scopes)))));
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json().path("token").asString();
    }

    /** Creates a group of {@code owner}'s, open (people join by themselves) or closed; its id. */
    public String newGroup(TestUser owner, String name, boolean open) {
        ApiResponse created = post("/api/v1/groups", owner.token(), Map.of("name", name, "open", open));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().path("id").asString();
    }

    /** Posts {@code text} to a group as {@code author}, a member. */
    public void groupPost(TestUser author, String groupId, String text) {
        ApiResponse posted = post("/api/v1/groups/" + groupId + "/posts", author.token(), Map.of("text", text));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
    }

    /** Opens or closes a group, as its owner. */
    public void setGroupOpen(TestUser owner, String groupId, boolean open) {
        ApiResponse changed = send("PATCH", "/api/v1/groups/" + groupId, owner.token(), Map.of("open", open), "application/json");
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
    }

    public static String basic(String username, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
