package dev.tributary.crawler.fetch;

import java.time.Duration;
import java.util.List;

/** {@link FetchLimits} for tests: small and quick, changed one field at a time. */
final class TestLimits {

    static final String USER_AGENT = "Tributary/0.1 (+https://github.com/tributary; feed fetcher)";

    private Duration connectTimeout = Duration.ofSeconds(2);
    private Duration timeout = Duration.ofSeconds(5);
    private int maxRedirects = 5;
    private long maxBodyBytes = 1024 * 1024;
    private long maxDecompressedBytes = 4 * 1024 * 1024;
    private List<String> allowPrivate = List.of("127.0.0.1/32");

    /** The test servers listen on 127.0.0.1, which only this /32 lets through. */
    static TestLimits testServerAllowed() {
        return new TestLimits();
    }

    static TestLimits productionLike() {
        return new TestLimits().allowPrivate();
    }

    TestLimits timeout(Duration value) {
        timeout = value;
        return this;
    }

    TestLimits connectTimeout(Duration value) {
        connectTimeout = value;
        return this;
    }

    TestLimits maxRedirects(int value) {
        maxRedirects = value;
        return this;
    }

    TestLimits maxBodyBytes(long value) {
        maxBodyBytes = value;
        return this;
    }

    TestLimits maxDecompressedBytes(long value) {
        maxDecompressedBytes = value;
        return this;
    }

    TestLimits allowPrivate(String... ranges) {
        allowPrivate = List.of(ranges);
        return this;
    }

    FetchLimits build() {
        return new FetchLimits(connectTimeout, timeout, maxRedirects, maxBodyBytes, maxDecompressedBytes, USER_AGENT, allowPrivate);
    }
}
