package dev.tributary.crawler.websub;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.crawler.fetch.FeedFetcher;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchRequest;
import dev.tributary.crawler.fetch.FetchResult;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * What Tributary's own hub asks of its subscribers' callbacks (intent verification, content
 * distribution), through the crawler's fetcher: the same SSRF guard (no private, loopback or
 * link-local address, at resolution and again at connection, unless
 * {@code tributary.crawler.allow-private} lists it), body and time limits as a feed fetch.
 */
@Component
public class SubscriberClient {

    /** A callback's answer: its status (0 when none came) and body, or why there was none. */
    public record Answer(int status, byte[] body, String detail) {

        public boolean accepted() {
            return status >= 200 && status < 300;
        }
    }

    private final FeedFetcher fetcher;
    /** The fetcher's own timeout bounds each call; this only bounds the wait for its answer. */
    private final Duration wait;

    SubscriberClient(FeedFetcher fetcher, CrawlerSettings settings) {
        this.fetcher = fetcher;
        this.wait = settings.timeout().plusSeconds(10);
    }

    /** {@code GET} of the callback url (carrying the verification's query). */
    public Answer get(URI url) {
        return answer(fetcher.fetch(FetchRequest.of(url)).block(wait));
    }

    /** {@code POST} of {@code body} to the callback with {@code headers} (Link, X-Hub-Signature). */
    public Answer post(URI url, String contentType, Map<String, String> headers, byte[] body) {
        return answer(fetcher.post(url, contentType, headers, body).block(wait));
    }

    /**
     * The address a call to {@code url} would connect to ("ip:port"); null when the url is not one
     * the fetcher may call: an address the guard refuses, a name that does not resolve (in the
     * connect timeout) or only to refused addresses. Checked again at every connection.
     */
    public @Nullable String address(URI url) throws InterruptedException {
        return fetcher.callableAddress(url);
    }

    private static Answer answer(@Nullable Object outcome) {
        return switch (outcome) {
            case FetchResult result -> new Answer(result.status(), result.body(), "HTTP " + result.status());
            case FetchFailure failure -> new Answer(failure.status() == null ? 0 : failure.status(), new byte[0],
                    failure.reason().key() + ": " + failure.detail());
            case null, default -> new Answer(0, new byte[0], "no answer");
        };
    }
}
