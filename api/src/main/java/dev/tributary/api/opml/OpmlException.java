package dev.tributary.api.opml;

/** An OPML document that cannot be imported as a whole; the message says why, for the subscriber. */
class OpmlException extends RuntimeException {

    OpmlException(String message) {
        super(message);
    }
}
