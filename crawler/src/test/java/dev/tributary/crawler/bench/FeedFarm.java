package dev.tributary.crawler.bench;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A local feed farm on 127.0.0.1 (Reactor Netty): {@code /feeds/N.xml} for N below the farm's
 * size, each an RSS 2.0 feed with Media RSS of 10 entries (~8 KB; or as many as asked), rendered once per version.
 * {@link #change} publishes a new entry on a share of the feeds; a request whose
 * {@code If-None-Match} matches the current version gets a 304.
 */
final class FeedFarm implements AutoCloseable {

    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    private static final String[] WORDS = ("river feed crawler pubsub inbox timeline unread people group media video "
            + "audio image text link source subscribe publish entity index store batch write read page cursor").split(" ");

    private final int entries;
    private final int[] versions;
    private final byte[][] bodies;
    private final DisposableServer server;
    private final AtomicLong full = new AtomicLong();
    private final AtomicLong notModified = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();

    FeedFarm(int feeds) {
        this(feeds, 10);
    }

    /** {@code feeds} feeds of {@code entries} entries each. */
    FeedFarm(int feeds, int entries) {
        this.entries = entries;
        this.versions = new int[feeds];
        this.bodies = new byte[feeds][];
        for (int n = 0; n < feeds; n++) {
            bodies[n] = render(n, 0, entries);
        }
        this.server = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes.get("/feeds/{name}", this::serve))
                .bindNow();
    }

    int size() {
        return versions.length;
    }

    URI url(int n) {
        return URI.create("http://127.0.0.1:" + server.port() + "/feeds/" + n + ".xml");
    }

    String urlPrefix() {
        return "http://127.0.0.1:" + server.port() + "/feeds/";
    }

    /** The bodies the farm serves now (shared, not copied). */
    byte[][] bodies() {
        return bodies;
    }

    /** A new entry on {@code share} of the feeds, chosen at random; returns how many changed. */
    synchronized int change(double share, Random random) {
        int changed = 0;
        for (int n = 0; n < versions.length; n++) {
            if (random.nextDouble() < share) {
                versions[n]++;
                bodies[n] = render(n, versions[n], entries);
                changed++;
            }
        }
        return changed;
    }

    long fullResponses() {
        return full.get();
    }

    long notModifiedResponses() {
        return notModified.get();
    }

    /** Most requests the farm was answering at once. */
    int mostInFlight() {
        return mostInFlight.get();
    }

    @Override
    public void close() {
        server.disposeNow();
    }

    private Mono<Void> serve(HttpServerRequest request, HttpServerResponse response) {
        mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        return answer(request, response).doFinally(signal -> inFlight.decrementAndGet());
    }

    private Mono<Void> answer(HttpServerRequest request, HttpServerResponse response) {
        String name = request.param("name");
        int n;
        try {
            n = Integer.parseInt(name == null ? "" : name.replace(".xml", ""));
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n >= versions.length) {
            return response.status(HttpResponseStatus.NOT_FOUND).send();
        }
        int version;
        byte[] body;
        synchronized (this) {
            version = versions[n];
            body = bodies[n];
        }
        String etag = "\"" + n + "-" + version + "\"";
        response.header(HttpHeaderNames.ETAG, etag);
        if (etag.equals(request.requestHeaders().get(HttpHeaderNames.IF_NONE_MATCH))) {
            notModified.incrementAndGet();
            return response.status(HttpResponseStatus.NOT_MODIFIED).send();
        }
        full.incrementAndGet();
        return response.header(HttpHeaderNames.CONTENT_TYPE, "application/rss+xml; charset=utf-8")
                .header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length))
                .sendByteArray(Mono.just(body)).then();
    }

    /** Feed {@code n} at {@code version}: entries version+1 .. version+entries, an hour apart, newest first. */
    private static byte[] render(int n, int version, int entries) {
        Random random = new Random(31L * n + version);
        StringBuilder xml = new StringBuilder(9000).append("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
                <channel><title>Farm feed %d</title><link>https://farm.example/%d/</link>
                <description>Generated feed %d</description>
                """.formatted(n, n, n));
        for (int k = version + entries; k > version; k--) {
            Instant published = EPOCH.plusSeconds(3600L * k);
            xml.append("<item><guid isPermaLink=\"false\">farm-").append(n).append('-').append(k).append("</guid>")
                    .append("<title>Entry ").append(k).append(" of feed ").append(n).append("</title>")
                    .append("<link>https://farm.example/").append(n).append('/').append(k).append("</link>")
                    .append("<category>").append(WORDS[random.nextInt(WORDS.length)]).append("</category>")
                    .append("<pubDate>").append(DateTimeFormatter.RFC_1123_DATE_TIME.format(published.atOffset(ZoneOffset.UTC)))
                    .append("</pubDate><description><![CDATA[<p>");
            for (int w = 0; w < 80; w++) {
                xml.append(WORDS[random.nextInt(WORDS.length)]).append(w % 12 == 11 ? ". " : " ");
            }
            xml.append("<a href=\"/more/").append(k).append("\">more</a></p>]]></description>");
            if (k % 3 == 0) {
                xml.append("<media:content url=\"https://farm.example/img/").append(n).append('-').append(k)
                        .append(".jpg\" type=\"image/jpeg\" width=\"640\" height=\"480\"/>");
            }
            xml.append("</item>\n");
        }
        return xml.append("</channel></rss>\n").toString().getBytes(StandardCharsets.UTF_8);
    }
}
