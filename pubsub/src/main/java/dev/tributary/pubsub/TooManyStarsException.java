package dev.tributary.pubsub;

/** A person has as many stars as {@code tributary.stars.max-per-person} allows: unstar some first. */
public class TooManyStarsException extends PubsubException {

    private final int max;

    public TooManyStarsException(int max) {
        super("a person may star at most " + max + " items");
        this.max = max;
    }

    public int max() {
        return max;
    }
}
