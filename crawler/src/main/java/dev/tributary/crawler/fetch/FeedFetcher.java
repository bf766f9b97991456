package dev.tributary.crawler.fetch;

import java.time.Clock;
import reactor.core.publisher.Mono;

/** Fetches feeds over HTTP with Reactor Netty, within {@link FetchLimits} and behind the SSRF guard. */
public final class FeedFetcher implements AutoCloseable {

    public FeedFetcher(FetchLimits limits, Clock clock) {
        throw new UnsupportedOperationException("to be built");
    }

    /** Never errors: every failure is a {@link FetchFailure}. */
    public Mono<FetchOutcome> fetch(FetchRequest request) {
        throw new UnsupportedOperationException("to be built");
    }

    @Override
    public void close() {
    }
}
