package dev.tributary.api.bench;

import dev.tributary.api.web.Caller;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP benchmark's baseline: {@code GET /api/v1/bench/constant}, the cheapest authenticated
 * API endpoint. It passes the same filters as every API call (bearer token, scope, rate limit)
 * and resolves the {@link Caller}, then returns bytes made once (a home-timeline page's JSON, so
 * the body has the same size). Test sources only, and only in a context that sets
 * {@code tributary.bench.constant-endpoint=true}: the tests' contexts scan this package too.
 */
@RestController
@ConditionalOnBooleanProperty("tributary.bench.constant-endpoint")
class ConstantController {

    static final String PATH = "/api/v1/bench/constant";
    /** The same, with a body the size of an unread answer: the fair floor for a small response. */
    static final String SMALL_PATH = "/api/v1/bench/constant-small";

    private volatile byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
    private volatile byte[] smallBody = "{}".getBytes(StandardCharsets.UTF_8);

    @GetMapping(path = PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> constant(Caller caller) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    @GetMapping(path = SMALL_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> constantSmall(Caller caller) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(smallBody);
    }

    void smallBody(byte[] json) {
        this.smallBody = json.clone();
    }

    /** Sets the body every later request gets. */
    void body(byte[] json) {
        this.body = json.clone();
    }
}
