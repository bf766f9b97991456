package dev.tributary.crawler.fetch;

import java.net.URI;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The hops of one fetch: the url being fetched now, how many redirects led there, whether all
 * were permanent, and which urls were seen (to tell a loop from a long chain). One per fetch;
 * hops run one after another, and {@link #current()} may be read by the timeout's thread.
 */
final class RedirectTrail {

    private final int maxRedirects;
    private final Set<String> seen = new HashSet<>();
    private volatile URI current;
    private int redirects;
    private boolean allPermanent = true;

    RedirectTrail(URI start, int maxRedirects) {
        this.current = start;
        this.maxRedirects = maxRedirects;
    }

    URI current() {
        return current;
    }

    /** Records that {@code target} is about to be requested. */
    void visit(FeedUrls.Target target) {
        current = target.uri();
        seen.add(target.uri().toString());
    }

    /**
     * Follows a redirect from {@link #current()} to {@code location}.
     *
     * @throws FetchAbort REDIRECT_LOOP, TOO_MANY_REDIRECTS or INVALID_URL
     */
    FeedUrls.Target follow(int status, String location) {
        FeedUrls.Target next = FeedUrls.resolveLocation(current, location);
        redirects++;
        allPermanent &= status == 301 || status == 308;
        if (seen.contains(next.uri().toString())) {
            current = next.uri();
            throw new FetchAbort(FailureReason.REDIRECT_LOOP, "redirect loop", status);
        }
        if (redirects > maxRedirects) {
            current = next.uri();
            throw new FetchAbort(FailureReason.TOO_MANY_REDIRECTS, "more than " + maxRedirects + " redirects", status);
        }
        return next;
    }

    /** The url to store the feed under from now on, when every redirect was permanent. */
    @Nullable URI movedTo() {
        return redirects > 0 && allPermanent ? current : null;
    }
}
