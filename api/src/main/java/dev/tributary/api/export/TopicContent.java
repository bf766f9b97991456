package dev.tributary.api.export;

/** A topic's current content as the hub distributes it: the export's bytes, content type and ETag. */
public record TopicContent(byte[] body, String contentType, String etag) {
}
