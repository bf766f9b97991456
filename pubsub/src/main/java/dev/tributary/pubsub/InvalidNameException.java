package dev.tributary.pubsub;

/**
 * A folder name or subscription title that breaks the rules of {@link Names}; {@code field} is
 * what it was given as ({@code name}, {@code title}), {@code problem} says what is wrong with it.
 */
public class InvalidNameException extends PubsubException {

    private final String field;
    private final String problem;

    public InvalidNameException(String field, String problem) {
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
