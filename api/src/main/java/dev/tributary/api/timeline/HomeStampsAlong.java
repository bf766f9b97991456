package dev.tributary.api.timeline;

import dev.tributary.api.ratelimit.ReadAlong;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Paging;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Has the rate limit read the stamps of the caller's kept newest home page in the round trip that
 * counts {@code GET /api/v1/timelines/home}, so a poll whose page the node keeps and that still
 * holds costs that one round trip. Only a request with no parameter but {@code limit} (the page
 * a client polls) asks; any other reads its stamps itself, as does one whose kept page changed meanwhile.
 */
@Component
class HomeStampsAlong implements ReadAlong {

    private final NewestPages pages;

    HomeStampsAlong(NewestPages pages) {
        this.pages = pages;
    }

    @Override
    public List<String> keys(HttpServletRequest request, Caller caller) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!"GET".equals(request.getMethod()) || !HomeTimelineController.PATH.equals(path)
                || request.getParameterMap().keySet().stream().anyMatch(name -> !"limit".equals(name))) {
            return List.of();
        }
        int limit;
        try {
            limit = Paging.of(request.getParameter("limit"), null, null, null).limit();
        } catch (ApiProblem invalid) {
            return List.of(); // the controller answers it
        }
        return pages.stampKeys(caller.userId(), limit);
    }
}
