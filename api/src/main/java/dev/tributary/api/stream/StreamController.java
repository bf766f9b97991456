package dev.tributary.api.stream;

import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ClientAddress;
import dev.tributary.api.web.Ids;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The live home timeline as Server-Sent Events ({@code item}, {@code delete}, {@code unread}). */
@RestController
class StreamController {

    private final HomeStreams streams;

    StreamController(HomeStreams streams) {
        this.streams = streams;
    }

    @GetMapping("/api/v1/streaming/home")
    ResponseEntity<SseEmitter> home(Caller caller,
            @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventId, HttpServletRequest request) {
        // EventSource treats any error status as final and never reconnects: a Last-Event-ID that is
        // not an id is ignored, and the stream starts from now.
        SseEmitter emitter = streams.open(caller, ClientAddress.of(request.getRemoteAddr()), Ids.lenient(lastEventId));
        // Reverse proxies (nginx) would otherwise buffer the stream.
        return ResponseEntity.ok().header("X-Accel-Buffering", "no").body(emitter);
    }
}
