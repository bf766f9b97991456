package dev.tributary.api.timeline;

import dev.tributary.api.ratelimit.ReadAlong;
import dev.tributary.api.web.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Has the rate limit read the version of the caller's kept unread counts in the round trip that
 * counts {@code GET /api/v1/unread}, so a poll whose counts the node keeps costs that one round trip.
 */
@Component
class UnreadVersionAlong implements ReadAlong {

    private final KeptCounts counts;

    UnreadVersionAlong(KeptCounts counts) {
        this.counts = counts;
    }

    @Override
    public List<String> keys(HttpServletRequest request, Caller caller) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return "GET".equals(request.getMethod()) && ReadStateController.UNREAD.equals(path)
                ? counts.versionKeys(caller.userId()) : List.of();
    }
}
