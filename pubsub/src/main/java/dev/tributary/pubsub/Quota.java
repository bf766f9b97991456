package dev.tributary.pubsub;

/** Something a person holds a limited number of; {@link #reason()} is the stable key the API answers with. */
public enum Quota {
    SUBSCRIPTIONS("too_many_subscriptions", "subscriptions"),
    ATTACHED_FEEDS("too_many_attached_feeds", "feeds attached to your profile"),
    GROUPS_OWNED("too_many_groups", "groups of your own"),
    MEMBERSHIPS("too_many_memberships", "group memberships"),
    TOKENS("too_many_tokens", "personal tokens"),
    RULES("too_many_rules", "filter rules");

    private final String reason;
    private final String noun;

    Quota(String reason, String noun) {
        this.reason = reason;
        this.noun = noun;
    }

    public String reason() {
        return reason;
    }

    /** What is counted, for a sentence: "you have 100 personal tokens". */
    public String noun() {
        return noun;
    }
}
