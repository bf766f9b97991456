package dev.tributary.api.xmpp;

import dev.tributary.pubsub.Source;

/**
 * The names of Tributary's public nodes on the XEP-0060 service: one per feed source, per
 * person (their own posts) and per group; stable for the thing's life.
 */
final class PublicNodes {

    static final String HOME = "tributary/home";

    private PublicNodes() {
    }

    static String of(long sourceId, Source source) {
        return switch (source.kind()) {
            case FEED -> "tributary/feeds/" + sourceId;
            case USER -> "tributary/people/" + source.ownerId();
            case GROUP -> "tributary/groups/" + source.ownerId();
        };
    }
}
