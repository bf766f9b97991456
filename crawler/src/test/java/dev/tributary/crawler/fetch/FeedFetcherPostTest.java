package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Form POSTs (WebSub hub requests) go through the same guards as fetches and follow no redirect. */
class FeedFetcherPostTest {

    private final FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.systemUTC());
    private final TestHttpServer server = TestHttpServer.start();

    @AfterEach
    void close() {
        server.close();
        fetcher.close();
    }

    @Test
    void postsAnEncodedFormAndReturnsTheAnswer() {
        AtomicReference<String> received = new AtomicReference<>();
        AtomicReference<String> type = new AtomicReference<>();
        server.on("/hub", exchange -> {
            received.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            type.set(exchange.getRequestHeaders().getFirst("Content-Type"));
            TestHttpServer.send(exchange, 202, Map.of(), new byte[0]);
        });
        Map<String, String> form = new LinkedHashMap<>();
        form.put("hub.mode", "subscribe");
        form.put("hub.topic", "https://example.org/feed?a=1&b=2");

        FetchOutcome outcome = fetcher.postForm(server.url("/hub"), form).block(Duration.ofSeconds(20));

        assertThat(outcome).isInstanceOfSatisfying(FetchResult.class, result -> assertThat(result.status()).isEqualTo(202));
        assertThat(received.get()).isEqualTo("hub.mode=subscribe&hub.topic=https%3A%2F%2Fexample.org%2Ffeed%3Fa%3D1%26b%3D2");
        assertThat(type.get()).isEqualTo("application/x-www-form-urlencoded");
    }

    @Test
    void aRefusalARedirectAndABlockedHubAreFailures() {
        server.reply("/refuse", 400, Map.of(), "no".getBytes(StandardCharsets.UTF_8));
        server.redirect("/moved", 307, "/hub");

        assertThat(fetcher.postForm(server.url("/refuse"), Map.of()).block(Duration.ofSeconds(20)))
                .isInstanceOfSatisfying(FetchFailure.class, f -> assertThat(f.status()).isEqualTo(400));
        assertThat(fetcher.postForm(server.url("/moved"), Map.of()).block(Duration.ofSeconds(20)))
                .isInstanceOfSatisfying(FetchFailure.class, f -> assertThat(f.status()).isEqualTo(307));
        assertThat(fetcher.postForm(URI.create("http://10.0.0.1/hub"), Map.of()).block(Duration.ofSeconds(20)))
                .isInstanceOfSatisfying(FetchFailure.class, f -> assertThat(f.reason()).isEqualTo(FailureReason.BLOCKED_ADDRESS));
        assertThat(fetcher.postForm(URI.create("file:///etc/passwd"), Map.of()).block(Duration.ofSeconds(20)))
                .isInstanceOfSatisfying(FetchFailure.class, f -> assertThat(f.reason()).isEqualTo(FailureReason.INVALID_URL));
    }
}
