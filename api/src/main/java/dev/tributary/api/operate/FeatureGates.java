package dev.tributary.api.operate;

import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.Switches;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The entry points of the features an operator can switch off whole: a request to one while it is
 * off is refused before its controller runs (503, see {@link SwitchedOffProblems}). Features that
 * degrade instead (the page cache, back-fill, first fetches) check {@link Switches} where they work.
 */
@Configuration
class FeatureGates implements WebMvcConfigurer {

    private static final Map<Feature, List<String>> PATHS = Map.of(
            Feature.LIVE_STREAMS, List.of("/api/v1/streaming/**"),
            Feature.COMMENTS, List.of("/api/v1/items/*/comments", "/api/v1/comments/**"),
            Feature.OPML_IMPORT, List.of("/api/v1/subscriptions/import"));

    private final Switches switches;

    FeatureGates(Switches switches) {
        this.switches = switches;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        PATHS.forEach((feature, paths) -> registry.addInterceptor(new Gate(switches, feature)).addPathPatterns(paths));
    }

    /** Lets a request through while its feature is on. */
    private record Gate(Switches switches, Feature feature) implements HandlerInterceptor {
        @Override
        public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
            switches.requireOn(feature);
            return true;
        }
    }
}
