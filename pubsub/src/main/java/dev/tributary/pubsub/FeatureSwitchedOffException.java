package dev.tributary.pubsub;

/** A request needs a {@link Feature} an operator has switched off ({@link Switches}); the API answers 503. */
public final class FeatureSwitchedOffException extends RuntimeException {

    private final Feature feature;

    public FeatureSwitchedOffException(Feature feature) {
        super(feature.wireName() + " is switched off for now");
        this.feature = feature;
    }

    public Feature feature() {
        return feature;
    }
}
