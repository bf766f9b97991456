package dev.tributary.api.export;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Whether a conditional request for a feed may be answered 304. The ETag (a hash of the bytes)
 * changes with every change and rules when the client sends one. {@code If-Modified-Since}
 * alone has one-second precision while changes are stamped to the microsecond, so it answers
 * 304 only when the feed's last change is not after it: a change later in the same second as
 * the {@code Last-Modified} the client holds is never hidden (RFC 9110 §13.1.3 lets a server
 * ignore the header when it cannot be sure).
 */
final class FeedValidators {

    private FeedValidators() {
    }

    static boolean notModified(String etag, Instant lastModified, @Nullable String ifNoneMatch, long ifModifiedSinceMillis) {
        if (ifNoneMatch != null) {
            return matches(etag, ifNoneMatch);
        }
        return ifModifiedSinceMillis >= 0 && !lastModified.isAfter(Instant.ofEpochMilli(ifModifiedSinceMillis));
    }

    /** RFC 9110's weak comparison over the listed tags, or {@code *}. */
    private static boolean matches(String etag, String ifNoneMatch) {
        String ours = weakless(etag);
        for (String tag : ifNoneMatch.split(",")) {
            String candidate = tag.strip();
            if (candidate.equals("*") || weakless(candidate).equals(ours)) {
                return true;
            }
        }
        return false;
    }

    private static String weakless(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }
}
