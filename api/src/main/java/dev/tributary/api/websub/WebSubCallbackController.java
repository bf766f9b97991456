package dev.tributary.api.websub;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.crawler.WebSubCallbacks;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The WebSub callback hubs call: {@code GET} to verify a subscription's intent (echo the
 * challenge), {@code POST} to push a feed's new content (signed with the subscription's secret).
 * The path carries the subscription's unguessable key; the key-less path of subscriptions made
 * before keys still takes signed pushes but verifies nothing.
 */
@RestController
class WebSubCallbackController {

    private final WebSubCallbacks callbacks;
    private final long maxBody;

    WebSubCallbackController(WebSubCallbacks callbacks, CrawlerSettings settings) {
        this.callbacks = callbacks;
        this.maxBody = settings.maxBodySize().toBytes();
    }

    @GetMapping(path = {"/websub/{sourceId}", "/websub/{sourceId}/{key}"}, produces = MediaType.TEXT_PLAIN_VALUE)
    ResponseEntity<String> verify(@PathVariable long sourceId, @PathVariable(required = false) @Nullable String key,
            @RequestParam(name = "hub.mode", required = false) @Nullable String mode,
            @RequestParam(name = "hub.topic", required = false) @Nullable String topic,
            @RequestParam(name = "hub.challenge", required = false) @Nullable String challenge,
            @RequestParam(name = "hub.lease_seconds", required = false) @Nullable String leaseSeconds,
            @RequestParam(name = "hub.reason", required = false) @Nullable String reason) {
        return callbacks.verify(sourceId, key, mode, topic, challenge, leaseSeconds, reason)
                .map(ResponseEntity::ok)
                .orElseGet(() -> ResponseEntity.notFound().build());
    }

    // Numbers only, so a POST to the hub (/websub/hub) with another content type is the hub's 415, not a 400 here.
    @PostMapping({"/websub/{sourceId:-?\\d+}", "/websub/{sourceId:-?\\d+}/{key}"})
    ResponseEntity<Void> deliver(@PathVariable long sourceId, @PathVariable(required = false) @Nullable String key,
            @RequestHeader(name = "X-Hub-Signature", required = false) @Nullable String signature,
            @RequestHeader(name = "Content-Type", required = false) @Nullable String contentType,
            HttpServletRequest request) throws IOException {
        byte[] body = readLimited(request);
        if (body == null) {
            return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).build();
        }
        // WebSub: a push with a bad signature is still acknowledged (and ignored); 410 tells the hub to stop.
        return switch (callbacks.deliver(sourceId, key, signature, body, contentType)) {
            case PUBLISHED, REJECTED, UNREADABLE -> ResponseEntity.accepted().build();
            case UNKNOWN -> ResponseEntity.status(HttpStatus.GONE).build();
        };
    }

    /** The body, or null if it is larger than a feed fetch may be (read no further than that). */
    private byte @Nullable [] readLimited(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() > maxBody) {
            return null;
        }
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBody + 1));
            return body.length > maxBody ? null : body;
        }
    }
}
