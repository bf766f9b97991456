package dev.tributary.api.stream;

import java.io.IOException;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A stream's events through an async request, where its connection cannot be taken over (HTTP/2):
 * the events go as the bytes they are, framed already.
 */
record EmitterOutput(SseEmitter emitter) implements StreamOutput {

    @Override
    public void write(byte[] events) throws IOException {
        emitter.send(Set.of(new ResponseBodyEmitter.DataWithMediaType(events, MediaType.TEXT_PLAIN)));
    }

    @Override
    public void end() {
        try {
            emitter.complete();
        } catch (IllegalStateException alreadyDone) {
            // The request ended first (client gone, timeout): nothing left to complete.
        }
    }
}
