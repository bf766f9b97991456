package dev.tributary.api.export;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * Whether a conditional request for a feed may be answered 304. The ETag (a hash of the bytes)
 * changes with every change and rules when the client sends one. {@code If-Modified-Since}
 * alone is compared at the header's own one-second precision: a client echoing the
 * {@code Last-Modified} it was served gets 304 (compared to the microsecond, it never did). A
 * change later within that same second is seen only through the ETag, as with any server whose
 * dates have one-second precision.
 */
final class FeedValidators {

    private FeedValidators() {
    }

    static boolean notModified(String etag, Instant lastModified, @Nullable String ifNoneMatch, long ifModifiedSinceMillis) {
        if (ifNoneMatch != null) {
            return matches(etag, ifNoneMatch);
        }
        return ifModifiedSinceMillis >= 0
                && !lastModified.truncatedTo(ChronoUnit.SECONDS).isAfter(Instant.ofEpochMilli(ifModifiedSinceMillis));
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
