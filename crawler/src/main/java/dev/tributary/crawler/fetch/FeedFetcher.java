package dev.tributary.crawler.fetch;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslContext;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.Connection;
import reactor.netty.NettyOutbound;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientRequest;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.transport.NameResolverProvider;

/** Fetches feeds over HTTP with Reactor Netty, within {@link FetchLimits} and behind the SSRF guard. */
public final class FeedFetcher implements AutoCloseable {

    /** Feed types first; HTML last, since a feed url that turned into a page is still worth a look. */
    static final String ACCEPT = "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, "
            + "application/xml;q=0.8, text/xml;q=0.8, text/html;q=0.2, */*;q=0.1";
    /** A web page (an entry's article): HTML only; anything else is refused once it answers. */
    static final String PAGE_ACCEPT = "text/html, application/xhtml+xml;q=0.9, */*;q=0.1";
    static final String ACCEPT_ENCODING = "gzip, deflate";
    /** Per host: enough for a farm of feeds behind one name, few enough to stay polite. */
    private static final int MAX_CONNECTIONS_PER_HOST = 32;
    private static final int MAX_HEADER_BYTES = 32 * 1024;
    private static final byte[] NO_BODY = new byte[0];
    private static final Logger log = LoggerFactory.getLogger(FeedFetcher.class);

    private final FetchLimits limits;
    private final Clock clock;
    private final AddressGuard guard;
    private final LoopResources loops;
    private final ConnectionProvider pool;
    private final AddressResolverGroup<InetSocketAddress> resolver;
    private final HttpClient client;
    private final boolean tls;

    /**
     * @throws IllegalArgumentException when a limit is out of range or an {@code allowPrivate}
     *     entry is not a CIDR range
     */
    public FeedFetcher(FetchLimits limits, Clock clock) {
        this(limits, clock, dns(), null, "tributary-fetch", ACCEPT);
    }

    /**
     * A fetcher of web pages rather than feeds (an entry's full article): the same guard, limits
     * and redirect checks, its own connection pool, asking for HTML.
     *
     * @throws IllegalArgumentException as the feed fetcher's constructor
     */
    public static FeedFetcher forPages(FetchLimits limits, Clock clock) {
        return new FeedFetcher(limits, clock, dns(), null, "tributary-page", PAGE_ACCEPT);
    }

    private static BiFunction<LoopResources, AddressGuard, AddressResolverGroup<InetSocketAddress>> dns() {
        return (loops, guard) -> new GuardedResolverGroup(
                NameResolverProvider.builder().build().newNameResolverGroup(loops, LoopResources.DEFAULT_NATIVE), guard);
    }

    /**
     * @param resolution builds the resolver the connector uses, given the event loops and the
     *     guard; production wraps DNS in a {@link GuardedResolverGroup}, tests may substitute names
     * @param trust the TLS context to use instead of the JDK's trust store (tests), or null
     */
    FeedFetcher(FetchLimits limits, Clock clock,
            BiFunction<LoopResources, AddressGuard, AddressResolverGroup<InetSocketAddress>> resolution, @Nullable SslContext trust) {
        this(limits, clock, resolution, trust, "tributary-fetch", ACCEPT);
    }

    private FeedFetcher(FetchLimits limits, Clock clock,
            BiFunction<LoopResources, AddressGuard, AddressResolverGroup<InetSocketAddress>> resolution, @Nullable SslContext trust,
            String name, String accept) {
        this.limits = checked(limits);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.guard = new AddressGuard(limits.allowPrivate());
        this.tls = isTlsAvailable();
        if (!tls) {
            log.error("HTTPS feeds will fail with reason TLS: Reactor Netty's TLS support does not load without "
                    + "io.netty:netty-codec-classes-quic on the class path");
        }
        this.loops = LoopResources.create(name, LoopResources.DEFAULT_IO_WORKER_COUNT, true);
        this.pool = ConnectionProvider.builder(name)
                .maxConnections(MAX_CONNECTIONS_PER_HOST)
                // Callers bound concurrency; the total timeout bounds the wait for a connection.
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(limits.timeout().plusSeconds(1))
                .maxIdleTime(Duration.ofSeconds(20))
                .maxLifeTime(Duration.ofMinutes(5))
                .evictInBackground(Duration.ofSeconds(30))
                // The most recently used connection first: the rest go idle and get evicted.
                .lifo()
                // One pool per host: without this, pools of hosts fetched once would pile up.
                .disposeInactivePoolsInBackground(Duration.ofMinutes(1), Duration.ofMinutes(5))
                .build();
        this.resolver = resolution.apply(loops, guard);
        HttpClient base = HttpClient.create(pool);
        if (trust != null && tls) {
            base = base.secure(spec -> spec.sslContext(trust));
        }
        this.client = base
                .runOn(loops, LoopResources.DEFAULT_NATIVE)
                .resolver(resolver)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(limits.connectTimeout().toMillis(), Integer.MAX_VALUE))
                .followRedirect(false)
                .httpResponseDecoder(spec -> spec.maxHeaderSize(MAX_HEADER_BYTES).maxInitialLineLength(8192))
                .headers(h -> h.set(HttpHeaderNames.USER_AGENT, limits.userAgent())
                        .set(HttpHeaderNames.ACCEPT, accept)
                        .set(HttpHeaderNames.ACCEPT_ENCODING, ACCEPT_ENCODING));
    }

    /** Never errors: every failure is a {@link FetchFailure}. */
    public Mono<FetchOutcome> fetch(FetchRequest request) {
        Objects.requireNonNull(request, "request");
        RedirectTrail trail = new RedirectTrail(request.url(), limits.maxRedirects());
        return Mono.defer(() -> hop(request, trail, FeedUrls.check(request.url())))
                .onErrorResume(e -> Mono.just(Failures.ofError(e, trail.current())))
                .timeout(limits.timeout(), Mono.fromSupplier(() -> new FetchFailure(FailureReason.TIMEOUT,
                        "no complete response within " + describe(limits.timeout()), null, null, trail.current())))
                .onErrorResume(e -> Mono.just(Failures.ofError(e, trail.current())));
    }

    /**
     * The address ("ip:port") a fetch of {@code url} would connect to, as the guarded resolver
     * answers (it caches, so the fetch that follows asks no one again), waiting at most the
     * connect timeout; null when the url is invalid, the name does not resolve in time or only
     * to refused addresses (the fetch then fails on its own).
     */
    public @Nullable String address(URI url) throws InterruptedException {
        FeedUrls.Target target;
        try {
            target = FeedUrls.check(url);
        } catch (RuntimeException e) {
            return null;
        }
        int port = target.uri().getPort() != -1 ? target.uri().getPort() : target.uri().getScheme().equals("https") ? 443 : 80;
        if (target.literal() != null) {
            return target.literal().getHostAddress() + ":" + port;
        }
        Future<InetSocketAddress> answer = resolver.getResolver(loops.onClient(true).next())
                .resolve(InetSocketAddress.createUnresolved(target.uri().getHost(), port));
        if (!answer.await(limits.connectTimeout().toMillis()) || !answer.isSuccess()) {
            answer.cancel(false);
            return null;
        }
        InetSocketAddress resolved = answer.getNow();
        return resolved.getAddress() == null ? null : resolved.getAddress().getHostAddress() + ":" + resolved.getPort();
    }

    /**
     * {@link #address} for a url the fetcher would call at all: null also for an IP literal the
     * SSRF guard refuses (which {@link #address} hands back, as a connection would be refused anyway).
     */
    public @Nullable String callableAddress(URI url) throws InterruptedException {
        try {
            FeedUrls.Target target = FeedUrls.check(url);
            if (target.literal() != null && guard.refusal(target.literal()) != null) {
                return null;
            }
        } catch (RuntimeException e) {
            return null;
        }
        return address(url);
    }

    /**
     * A form POST (a WebSub hub request) behind the same guards and limits. Redirects are not
     * followed: a hub that redirects a subscription request is treated as refusing it.
     */
    public Mono<FetchOutcome> postForm(URI url, Map<String, String> form) {
        return post(url, "application/x-www-form-urlencoded", Map.of(), formBody(form));
    }

    /**
     * A POST of {@code body} (a WebSub hub's content distribution) behind the same guards and
     * limits, with {@code headers} besides the content type. Redirects are not followed: a
     * redirect answers with a {@link FailureReason#CLIENT_ERROR}.
     */
    public Mono<FetchOutcome> post(URI url, String contentType, Map<String, String> headers, byte[] body) {
        Objects.requireNonNull(url, "url");
        RedirectTrail trail = new RedirectTrail(url, 0);
        FetchRequest request = FetchRequest.of(url);
        return Mono.defer(() -> {
                    FeedUrls.Target target = FeedUrls.check(url);
                    trail.visit(target);
                    Mono<FetchOutcome> refused = refusal(target);
                    if (refused != null) {
                        return refused;
                    }
                    return client.headers(h -> {
                                h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
                                headers.forEach(h::add);
                            })
                            .request(HttpMethod.POST)
                            .uri(target.uri())
                            .send((req, out) -> prepare(request, req, out).then(out.sendByteArray(Mono.just(body)).then()))
                            .response((response, content) -> Mono.defer(() -> handle(request, trail, response, content)))
                            .next()
                            .map(step -> step instanceof Step.Done done ? done.outcome()
                                    : new FetchFailure(FailureReason.CLIENT_ERROR, "answered a POST with a redirect",
                                            ((Step.Redirect) step).status(), null, trail.current()));
                })
                .onErrorResume(e -> Mono.just(Failures.ofError(e, trail.current())))
                .timeout(limits.timeout(), Mono.fromSupplier(() -> new FetchFailure(FailureReason.TIMEOUT,
                        "no complete response within " + describe(limits.timeout()), null, null, trail.current())))
                .onErrorResume(e -> Mono.just(Failures.ofError(e, trail.current())));
    }

    private static byte[] formBody(Map<String, String> form) {
        StringBuilder encoded = new StringBuilder();
        form.forEach((name, value) -> encoded.append(encoded.isEmpty() ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return encoded.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Refuses a target before any connection: https without TLS, or a non-public IP literal; null if it may go ahead. */
    private <T> @Nullable Mono<T> refusal(FeedUrls.Target target) {
        if (!tls && target.uri().getScheme().equals("https")) {
            return Mono.error(new FetchAbort(FailureReason.TLS, "TLS is not available in this build"));
        }
        String refusal = target.literal() == null ? null : guard.refusal(target.literal());
        if (refusal != null) {
            // An IP literal never reaches the resolver: refuse it before any connection.
            return Mono.error(new FetchAbort(FailureReason.BLOCKED_ADDRESS, "refused: the url is a non-public address (" + refusal + ")"));
        }
        return null;
    }

    private Mono<FetchOutcome> hop(FetchRequest request, RedirectTrail trail, FeedUrls.Target target) {
        trail.visit(target);
        Mono<FetchOutcome> refused = refusal(target);
        if (refused != null) {
            return refused;
        }
        return client.request(HttpMethod.GET)
                .uri(target.uri())
                .send((req, out) -> prepare(request, req, out))
                .response((response, body) -> Mono.defer(() -> handle(request, trail, response, body)))
                .next()
                .flatMap(step -> step instanceof Step.Redirect redirect
                        ? hop(request, trail, trail.follow(redirect.status(), redirect.location()))
                        : Mono.just(((Step.Done) step).outcome()));
    }

    /**
     * Runs on the connection, before a byte of the request is written: the last SSRF check, on
     * the address the socket is actually connected to, whatever resolution said before.
     */
    private Mono<Void> prepare(FetchRequest request, HttpClientRequest req, NettyOutbound out) {
        Connection[] connection = new Connection[1];
        out.withConnection(c -> connection[0] = c);
        // The channel itself: once the request fails the connection object lets go of it.
        Channel channel = connection[0].channel();
        SocketAddress remote = channel.remoteAddress();
        String refusal = remote instanceof InetSocketAddress address && address.getAddress() != null
                ? guard.refusal(address.getAddress()) : "unknown";
        if (refusal != null) {
            // Closed only after the error has reached the fetch: closing first would turn it into
            // a premature close, and leaving it open would pool a socket to an internal host.
            return Mono.<Void>error(new FetchAbort(FailureReason.BLOCKED_ADDRESS, "refused: connected to a non-public address (" + refusal + ")"))
                    .doFinally(signal -> channel.close());
        }
        if (isHeaderSafe(request.etag())) {
            req.header(HttpHeaderNames.IF_NONE_MATCH, request.etag());
        }
        if (isHeaderSafe(request.lastModified())) {
            req.header(HttpHeaderNames.IF_MODIFIED_SINCE, request.lastModified());
        }
        return Mono.empty();
    }

    private Mono<Step> handle(FetchRequest request, RedirectTrail trail, HttpClientResponse response, ByteBufFlux body) {
        int status = response.status().code();
        HttpHeaders headers = response.responseHeaders();
        if (status == 304) {
            // A 304 may leave out validators that still hold; keep the ones the request sent.
            return Mono.just(new Step.Done(result(status, true, headers, trail,
                    orElse(headers.get(HttpHeaderNames.ETAG), request.etag()),
                    orElse(headers.get(HttpHeaderNames.LAST_MODIFIED), request.lastModified()),
                    null, NO_BODY)));
        }
        if (status >= 200 && status < 300) {
            return readBody(headers, body).map(bytes -> new Step.Done(result(status, false, headers, trail,
                    headers.get(HttpHeaderNames.ETAG), headers.get(HttpHeaderNames.LAST_MODIFIED),
                    headers.get(HttpHeaderNames.CONTENT_TYPE), bytes)));
        }
        if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
            String location = headers.get(HttpHeaderNames.LOCATION);
            if (location == null || location.isBlank()) {
                return Mono.just(new Step.Done(new FetchFailure(FailureReason.PROTOCOL, "redirect without a Location", status, null, trail.current())));
            }
            return Mono.just(new Step.Redirect(status, location));
        }
        Duration retryAfter = status == 429 || status == 503 ? CacheHeaders.retryAfter(headers.get(HttpHeaderNames.RETRY_AFTER), clock) : null;
        return Mono.just(new Step.Done(Failures.ofStatus(status, retryAfter, trail.current())));
    }

    private Mono<byte[]> readBody(HttpHeaders headers, ByteBufFlux body) {
        long contentLength = contentLength(headers.get(HttpHeaderNames.CONTENT_LENGTH));
        if (contentLength > limits.maxBodyBytes()) {
            // Not subscribing to the body makes Reactor Netty close the connection unread.
            return Mono.error(new FetchAbort(FailureReason.TOO_LARGE, "body is larger than " + limits.maxBodyBytes() + " bytes"));
        }
        BodyReader reader = new BodyReader(limits.maxBodyBytes(),
                BodyDecoder.forEncoding(headers.get(HttpHeaderNames.CONTENT_ENCODING), contentLength, limits));
        // An error in accept cancels the body, which closes the connection mid-stream.
        return body.doOnNext(reader::accept)
                .then(Mono.fromCallable(reader::finish))
                .doFinally(signal -> reader.close());
    }

    private FetchResult result(int status, boolean notModified, HttpHeaders headers, RedirectTrail trail,
            @Nullable String etag, @Nullable String lastModified, @Nullable String contentType, byte[] body) {
        return new FetchResult(status, notModified, etag, lastModified,
                CacheHeaders.maxAge(headers.getAll(HttpHeaderNames.CACHE_CONTROL)),
                CacheHeaders.httpDate(headers.get(HttpHeaderNames.EXPIRES)),
                trail.current(), trail.movedTo(), contentType, body, headers.get(HttpHeaderNames.CONTENT_LOCATION));
    }

    /** Releases the connection pool, the resolver and the event loops; fetches still running fail. */
    @Override
    public void close() {
        try {
            pool.disposeLater().block(Duration.ofSeconds(10));
        } finally {
            try {
                resolver.close();
            } finally {
                loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block(Duration.ofSeconds(10));
            }
        }
    }

    /** What one response led to: a final outcome, or a redirect to follow. */
    private sealed interface Step {
        record Done(FetchOutcome outcome) implements Step {
        }

        record Redirect(int status, String location) implements Step {
        }
    }

    /**
     * Reactor Netty's TLS class probes for HTTP/3 as it loads and fails with a LinkageError when
     * the QUIC classes are missing; Reactor rethrows linkage errors, so this is checked up front
     * rather than let an https fetch throw.
     */
    static boolean isTlsAvailable() {
        try {
            Class.forName("reactor.netty.http.client.HttpClientSecure", true, HttpClient.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static FetchLimits checked(FetchLimits limits) {
        Objects.requireNonNull(limits, "limits");
        requirePositive(limits.connectTimeout(), "connectTimeout");
        requirePositive(limits.timeout(), "timeout");
        if (limits.maxRedirects() < 0) {
            throw new IllegalArgumentException("FetchLimits.maxRedirects must be 0 or more, was " + limits.maxRedirects());
        }
        if (limits.maxBodyBytes() <= 0 || limits.maxDecompressedBytes() <= 0) {
            throw new IllegalArgumentException("FetchLimits.maxBodyBytes and maxDecompressedBytes must be positive");
        }
        if (!isHeaderSafe(limits.userAgent()) || limits.userAgent().isBlank()) {
            throw new IllegalArgumentException("FetchLimits.userAgent must be printable ASCII, was '" + limits.userAgent() + "'");
        }
        return limits;
    }

    private static void requirePositive(Duration duration, String name) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("FetchLimits." + name + " must be positive, was " + duration);
        }
    }

    /** Validators come back from servers; one with a line break would otherwise break the request. */
    private static boolean isHeaderSafe(@Nullable String value) {
        if (value == null || value.isEmpty() || value.length() > 8192) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static long contentLength(@Nullable String value) {
        if (value == null) {
            return -1;
        }
        String digits = value.strip();
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Long.parseLong(digits);
    }

    private static @Nullable String orElse(@Nullable String value, @Nullable String fallback) {
        return value != null ? value : fallback;
    }

    private static String describe(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }
}
