package dev.tributary.pubsub;

/** A person already holds as many of something as {@link LimitSettings} allows; nothing was stored. */
public final class QuotaExceededException extends PubsubException {

    private final Quota quota;
    private final int limit;

    public QuotaExceededException(Quota quota, int limit) {
        super("at most " + limit + " " + quota.noun());
        this.quota = quota;
        this.limit = limit;
    }

    public Quota quota() {
        return quota;
    }

    public int limit() {
        return limit;
    }

    /** A sentence for the person: what they hold and what to do. */
    public String advice() {
        return "You have " + limit + " " + quota.noun() + ", the most a person may have: remove one first.";
    }
}
