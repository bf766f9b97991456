package dev.tributary.api.export;

import org.springframework.http.MediaType;

/** The formats a timeline is exported in: Rome's name for each and the content type it is served as. */
enum FeedFormat {
    RSS("rss_2.0", "application/rss+xml"),
    ATOM("atom_1.0", "application/atom+xml");

    private final String romeType;
    private final MediaType contentType;

    FeedFormat(String romeType, String contentType) {
        this.romeType = romeType;
        this.contentType = new MediaType(MediaType.parseMediaType(contentType), java.nio.charset.StandardCharsets.UTF_8);
    }

    String romeType() {
        return romeType;
    }

    MediaType contentType() {
        return contentType;
    }
}
