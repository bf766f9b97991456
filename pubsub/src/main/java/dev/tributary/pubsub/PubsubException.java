package dev.tributary.pubsub;

/** A request pub/sub refuses for a reason the caller can act on (the API maps each to a 4xx). */
public abstract class PubsubException extends RuntimeException {

    protected PubsubException(String message) {
        super(message);
    }
}
