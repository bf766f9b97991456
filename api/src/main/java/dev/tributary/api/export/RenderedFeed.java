package dev.tributary.api.export;

import java.time.Instant;
import org.springframework.http.MediaType;

/** A feed written out: its bytes, content type and the validators conditional requests compare. */
record RenderedFeed(byte[] body, MediaType contentType, String etag, Instant lastModified) {
}
