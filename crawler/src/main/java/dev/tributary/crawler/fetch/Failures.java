package dev.tributary.crawler.fetch;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.resolver.dns.DnsNameResolverException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.http.client.PrematureCloseException;

/** Classifies what went wrong in a fetch — an HTTP status or an exception — as a {@link FetchFailure}. */
final class Failures {

    private static final Logger log = LoggerFactory.getLogger(Failures.class);
    /** How deep to look through wrapping exceptions for one that says what happened. */
    private static final int MAX_CAUSES = 8;

    private Failures() {
    }

    /** The reason for a final status that is neither 2xx, 304 nor a followed redirect. */
    static FailureReason reasonForStatus(int status) {
        return switch (status) {
            case 401, 403 -> FailureReason.FORBIDDEN;
            case 404 -> FailureReason.NOT_FOUND;
            case 410 -> FailureReason.GONE;
            case 429 -> FailureReason.RATE_LIMITED;
            default -> status >= 400 && status < 500 ? FailureReason.CLIENT_ERROR
                    : status >= 500 && status < 600 ? FailureReason.SERVER_ERROR
                    : FailureReason.PROTOCOL;
        };
    }

    static FetchFailure ofStatus(int status, @Nullable Duration retryAfter, URI url) {
        FailureReason reason = reasonForStatus(status);
        String detail = reason == FailureReason.PROTOCOL ? "unexpected HTTP status " + status : "HTTP " + status;
        return new FetchFailure(reason, detail, status, retryAfter, url);
    }

    static FetchFailure ofError(Throwable error, @Nullable URI url) {
        Throwable cause = error;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            FetchFailure known = known(cause, url);
            if (known != null) {
                return known;
            }
        }
        log.debug("Fetch of {} failed in an unclassified way", url, error);
        return new FetchFailure(FailureReason.PROTOCOL, "malformed response", null, null, url);
    }

    private static @Nullable FetchFailure known(Throwable e, @Nullable URI url) {
        if (e instanceof FetchAbort abort) {
            return new FetchFailure(abort.reason(), abort.getMessage(), abort.status(), null, url);
        }
        String detail;
        FailureReason reason;
        if (e instanceof UnknownHostException || e instanceof DnsNameResolverException) {
            reason = FailureReason.DNS;
            detail = "host name could not be resolved";
        } else if (e instanceof ConnectTimeoutException) {
            reason = FailureReason.CONNECT;
            detail = "connecting timed out";
        } else if (e instanceof ConnectException || e instanceof NoRouteToHostException) {
            reason = FailureReason.CONNECT;
            detail = "connection refused or unreachable";
        } else if (e instanceof SSLException) {
            reason = FailureReason.TLS;
            detail = "TLS handshake failed";
        } else if (e instanceof TooLongFrameException) {
            reason = FailureReason.PROTOCOL;
            detail = "response headers are too large";
        } else if (e instanceof PrematureCloseException) {
            reason = FailureReason.PROTOCOL;
            detail = "connection closed before the response was complete";
        } else if (e instanceof TimeoutException) {
            // The connection pool's acquire timeout; the total timeout is handled by FeedFetcher.
            reason = FailureReason.TIMEOUT;
            detail = "no connection became free in time";
        } else {
            return null;
        }
        return new FetchFailure(reason, detail, null, null, url);
    }
}
