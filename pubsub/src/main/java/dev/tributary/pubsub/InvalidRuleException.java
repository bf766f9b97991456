package dev.tributary.pubsub;

/**
 * A rule the person may not have as written: {@code field} names the part at fault
 * ({@code pattern}, {@code source_id}, {@code folder_id}), {@code problem} says what is wrong.
 */
public class InvalidRuleException extends PubsubException {

    private final String field;
    private final String problem;

    public InvalidRuleException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
        this.problem = problem;
    }

    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }
}
