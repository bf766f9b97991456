package dev.tributary.api.greader;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The plain-text answers of Google Reader calls ({@code OK}, the edit token). The content type is
 * set here rather than negotiated: apps send {@code Accept: application/json} or nothing and
 * still expect the bare text.
 */
final class ReaderText {

    private ReaderText() {
    }

    static ResponseEntity<String> of(String text) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(text);
    }

    static ResponseEntity<String> ok() {
        return of("OK");
    }
}
