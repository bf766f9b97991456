package dev.tributary.api.stream;

import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ClientAddress;
import dev.tributary.api.web.Ids;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The live home timeline as Server-Sent Events ({@code item}, {@code delete}, {@code unread}). */
@RestController
class StreamController {

    private static final String EVENT_STREAM = "text/event-stream";
    /** The least a write waits for a client, however short the heartbeat: a slow moment is not a dead client. */
    private static final Duration LEAST_WRITE_WAIT = Duration.ofSeconds(10);

    private final HomeStreams streams;
    private final StreamSettings settings;

    StreamController(HomeStreams streams, StreamSettings settings) {
        this.streams = streams;
        this.settings = settings;
    }

    /**
     * Over HTTP/1.x the stream takes the connection over ({@link LiveConnection}); elsewhere it is
     * an async request (SseEmitter). Either way: status 200, the same headers, the same events.
     */
    @GetMapping("/api/v1/streaming/home")
    @Nullable ResponseEntity<SseEmitter> home(Caller caller,
            @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        if ("HEAD".equals(request.getMethod())) {
            return ResponseEntity.ok().header(HttpHeaders.CONTENT_TYPE, EVENT_STREAM).build();
        }
        // EventSource treats any error status as final and never reconnects: a Last-Event-ID that is
        // not an id is ignored, and the stream starts from now.
        Long after = Ids.lenient(lastEventId);
        HomeStream stream = streams.open(caller, ClientAddress.of(request.getRemoteAddr()));
        // Reverse proxies (nginx) would otherwise buffer the stream.
        response.setHeader("X-Accel-Buffering", "no");
        response.setContentType(EVENT_STREAM);
        LiveConnection connection;
        try {
            connection = LiveConnection.upgrade(request, response, writeTimeout(), streams.closer(stream));
        } catch (IOException | RuntimeException e) {
            streams.close(stream);
            throw e;
        }
        if (connection != null) {
            streams.start(stream, connection, after);
            return null;
        }
        SseEmitter emitter = new SseEmitter(settings.maxDuration().toMillis());
        Runnable closer = streams.closer(stream);
        emitter.onCompletion(closer);
        emitter.onTimeout(closer);
        emitter.onError(error -> closer.run());
        // Committed here, on the request's thread, as the upgraded path does: a first write from the
        // stream's thread would commit it there, while Spring Security's HeaderWriterFilter writes the
        // same headers on this one (Tomcat's headers are not thread-safe; spring-security#15510).
        try {
            response.flushBuffer();
        } catch (IOException clientGone) {
            streams.close(stream);
            throw clientGone;
        }
        streams.start(stream, new EmitterOutput(emitter), after);
        return ResponseEntity.ok().body(emitter);
    }

    /** How long a write may wait for a client that does not read: a heartbeat's interval, at least {@link #LEAST_WRITE_WAIT}. */
    private Duration writeTimeout() {
        return settings.heartbeat().compareTo(LEAST_WRITE_WAIT) > 0 ? settings.heartbeat() : LEAST_WRITE_WAIT;
    }
}
