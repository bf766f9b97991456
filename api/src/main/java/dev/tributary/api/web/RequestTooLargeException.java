package dev.tributary.api.web;

import java.io.IOException;

/** A request body ran past {@code tributary.api.max-body-size} while it was read: a 413. */
public class RequestTooLargeException extends IOException {

    public RequestTooLargeException(long limit) {
        super("The request body is larger than " + limit + " bytes.");
    }
}
