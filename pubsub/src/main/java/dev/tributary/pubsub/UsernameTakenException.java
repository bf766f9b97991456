package dev.tributary.pubsub;

/** Registration asked for a username someone already has. */
public class UsernameTakenException extends RuntimeException {

    public UsernameTakenException(String username) {
        super("The username '" + username + "' is taken.");
    }
}
