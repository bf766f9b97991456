package dev.tributary.api.greader;

import dev.tributary.api.web.ApiProblem;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Google Reader stream id as the apps send it ({@code s}, {@code xt}, {@code it}, labels): the
 * person's reading list, their read or starred entries, a label (a folder) or one feed
 * ({@code feed/<url>}). The user part may be {@code -} or any user id: a caller only ever
 * reads their own streams.
 */
sealed interface StreamId {

    int MAX_LENGTH = 2100;

    record ReadingList() implements StreamId {
    }

    record Read() implements StreamId {
    }

    record Starred() implements StreamId {
    }

    /** A Google state Tributary has no entries in (like, broadcast, kept-unread…): an empty stream. */
    record OtherState(String name) implements StreamId {
    }

    record Label(String name) implements StreamId {
    }

    record Feed(String url) implements StreamId {
    }

    Pattern USER_STREAM = Pattern.compile("user/(?:-|\\d{1,20})/(state/com\\.google|label)/(.+)", Pattern.DOTALL);

    /** The stream an id names; a malformed or unknown one is a 400 naming {@code param}. */
    static StreamId parse(String param, String value) {
        if (value.length() > MAX_LENGTH) {
            throw ApiProblem.invalid(param, "is longer than " + MAX_LENGTH + " characters");
        }
        if (value.startsWith("feed/") && value.length() > 5) {
            return new Feed(value.substring(5));
        }
        Matcher user = USER_STREAM.matcher(value);
        if (!user.matches()) {
            throw ApiProblem.invalid(param, "'" + shown(value) + "' is not a stream id (user/-/state/com.google/reading-list, "
                    + "…/read, …/starred, user/-/label/<folder> or feed/<url>)");
        }
        if (user.group(1).equals("label")) {
            return new Label(user.group(2));
        }
        return switch (user.group(2)) {
            case "reading-list" -> new ReadingList();
            case "read" -> new Read();
            case "starred" -> new Starred();
            default -> new OtherState(user.group(2));
        };
    }

    private static String shown(String value) {
        return value.length() > 80 ? value.substring(0, 80) + "…" : value;
    }

    static String label(String name) {
        return "user/-/label/" + name;
    }

    String READING_LIST = "user/-/state/com.google/reading-list";
    String READ = "user/-/state/com.google/read";
    String STARRED = "user/-/state/com.google/starred";
}
