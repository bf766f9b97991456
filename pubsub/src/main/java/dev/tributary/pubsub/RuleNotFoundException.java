package dev.tributary.pubsub;

/** The person has no rule with this id (someone else's counts as none). */
public class RuleNotFoundException extends PubsubException {

    public RuleNotFoundException(long ruleId) {
        super("rule " + ruleId + " does not exist");
    }
}
