package dev.tributary.storage.embedded;

/** The configured external database could not be reached at start-up. */
public class DatabaseUnreachableException extends RuntimeException {

    private final String url;

    public DatabaseUnreachableException(String url, Throwable cause) {
        super("Cannot reach the database at " + url + ": " + rootMessage(cause), cause);
        this.url = url;
    }

    public String url() {
        return url;
    }

    private static String rootMessage(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.replaceAll("\\s+", " ").strip();
    }
}
