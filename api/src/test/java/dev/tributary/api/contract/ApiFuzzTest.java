package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.contract.HostileRequests.Probe;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ResponseContract;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Walks every operation of {@code /v3/api-docs} with hostile requests, with a read+write token and
 * without one: nothing may answer 5xx, and every 4xx must be problem+json with type, title and
 * status. Operations come from the document, so new endpoints are walked as soon as they exist.
 */
@ApiTest
class ApiFuzzTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");
    /** Signing out everywhere with the fuzzer's token would revoke it mid-run: that one is probed without a token only. */
    private static final String SIGN_OUT_EVERYWHERE = "POST /api/v1/me/sessions/revoke";
    private static final int CONCURRENCY = 16;
    /**
     * Longer than a subscribe-time fetch may make a person wait for their turn at a host (the
     * crawler's 30 s fetch timeout): every probe with a url names the same local host, so under load
     * their turns queue behind its 1 s politeness delay, and a shorter wait would time out an answer
     * the server is still rightly preparing.
     */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

    @LocalServerPort int port;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void noOperationAnswersHostileRequestsWithA5xxOrAnythingButAProblem() throws Exception {
        ApiClient api = new ApiClient(port);
        ApiResponse documentAnswer = api.get("/v3/api-docs", null);
        JsonNode document = documentAnswer.json();
        ResponseContract contract = new ResponseContract(documentAnswer.body());
        TestUser fuzzer = api.newUser("fuzz");
        HostileRequests hostile = new HostileRequests(document);
        List<Probe> probes = new ArrayList<>();
        int operations = 0;
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                if (METHODS.contains(operation.getKey())) {
                    operations++;
                    probes.addAll(hostile.of(operation.getKey().toUpperCase(), path.getKey(), operation.getValue()));
                }
            }
        }

        long started = System.nanoTime();
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        Semaphore slots = new Semaphore(CONCURRENCY);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Probe probe : probes) {
                String[] tokens = probe.operation().equals(SIGN_OUT_EVERYWHERE) ? new String[] {null}
                        : new String[] {fuzzer.token(), null};
                for (String token : tokens) {
                    slots.acquire();
                    executor.submit(() -> {
                        try {
                            check(probe, token, contract, statuses, failures);
                        } finally {
                            slots.release();
                        }
                    });
                }
            }
        }

        System.out.printf("API fuzz: %d operations, %d hostile cases, each with and without a token = %d requests in %d ms;"
                + " statuses %s%n", operations, probes.size(), probes.size() * 2, (System.nanoTime() - started) / 1_000_000,
                new TreeMap<>(statuses));
        assertThat(operations).as("the document lists the API").isGreaterThanOrEqualTo(6);
        assertThat(failures).as(failures.size() + " failures").isEmpty();
    }

    private void check(Probe probe, @Nullable String token, ResponseContract contract, Map<Integer, AtomicInteger> statuses,
            ConcurrentLinkedQueue<String> failures) {
        String label = probe.operation() + " [" + probe.name() + (token == null ? ", no token" : "") + "]";
        Answer answer;
        try {
            answer = send(probe, token);
        } catch (IOException | RuntimeException e) {
            failures.add(label + ": " + e);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        statuses.computeIfAbsent(answer.status(), s -> new AtomicInteger()).incrementAndGet();
        String problem = verdict(probe, token, answer);
        if (problem != null) {
            failures.add(label + ": " + problem + " — " + answer.status() + " " + abbreviate(answer.body()));
        }
        // Hostile or not, the answer is one the document declares for the operation.
        contract.violations(probe.method(), URI.create("http://127.0.0.1" + probe.path()), answer.status(), answer.contentType(),
                answer.body()).forEach(violation -> failures.add(label + ": " + violation));
    }

    private static @Nullable String verdict(Probe probe, @Nullable String token, Answer answer) {
        if (answer.status() >= 500) {
            return "a server error";
        }
        // POST /api/v1/tokens takes the password as HTTP Basic, and checks it before the body (issue 49):
        // the probe's bearer token is no credential there, so its 401 comes first, as without a token.
        boolean basicOnly = probe.operation().equals("POST /api/v1/tokens");
        boolean authorised = token != null && !basicOnly || answer.status() != 401;
        if (probe.expected() != null && authorised && answer.status() != probe.expected()) {
            return "expected " + probe.expected();
        }
        if (answer.status() < 400) {
            return null;
        }
        if (answer.contentType() == null || !answer.contentType().startsWith("application/problem+json")) {
            return "a " + answer.status() + " that is not problem+json (" + answer.contentType() + ")";
        }
        try {
            JsonNode json = JSON.readTree(answer.body());
            if (json.path("type").asString("").isEmpty() || json.path("title").asString("").isEmpty()
                    || json.path("status").asInt() != answer.status()) {
                return "a problem without type, title or the right status";
            }
        } catch (RuntimeException unreadable) {
            return "a problem body that is not JSON";
        }
        return null;
    }

    private record Answer(int status, @Nullable String contentType, String body) {
    }

    private Answer send(Probe probe, @Nullable String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + probe.path()))
                .timeout(ANSWER_TIMEOUT)
                .header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (probe.contentType() != null) {
            request.header("Content-Type", probe.contentType());
        }
        request.method(probe.method(), probe.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(probe.body()));
        HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        String contentType = response.headers().firstValue("Content-Type").orElse(null);
        try (InputStream body = response.body()) {
            // A live stream (SSE) never ends: its status and headers are the answer.
            if (contentType != null && contentType.startsWith("text/event-stream")) {
                return new Answer(response.statusCode(), contentType, "");
            }
            return new Answer(response.statusCode(), contentType, new String(body.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static String abbreviate(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "…" : body;
    }
}
