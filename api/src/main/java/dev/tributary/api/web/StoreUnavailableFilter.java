package dev.tributary.api.web;

import dev.tributary.pubsub.MySqlFailures;
import dev.tributary.pubsub.RedisFailures;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A store that cannot answer now (or refuses for now: {@link RedisFailures}, {@link MySqlFailures}),
 * met in a filter before any controller (the token look-up of authentication, the rate limit):
 * 503 with {@code Retry-After}, as {@link ApiExceptionHandler} answers it inside a controller.
 * Without this, MySQL's pool exhausted under a thousand connections (a wait past its timeout
 * while the token was read) reached Tomcat as a 500.
 */
class StoreUnavailableFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(StoreUnavailableFilter.class);
    private final ProblemWriter problems;

    StoreUnavailableFilter(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (RuntimeException | ServletException e) {
            DataAccessException unavailable = unavailable(e);
            if (unavailable == null || response.isCommitted()) {
                throw e;
            }
            log.warn("Store unavailable on {}: {}", request.getRequestURI(),
                    NestedExceptionUtils.getMostSpecificCause(unavailable).getMessage());
            // The body only: the headers set so far (the rate limit's, the security headers) stay, as on any 503.
            response.resetBuffer();
            ApiProblem busy = ApiProblem.storeBusy();
            busy.getHeaders().forEach((name, values) -> values.forEach(value -> response.setHeader(name, value)));
            busy.getBody().setInstance(ProblemWriter.instance(request.getRequestURI()));
            problems.write(request, response, busy.getBody());
        }
    }

    /** Whether a store refused for now what {@code failure} asked: Spring translates such refusals to the types of a bug. */
    static boolean refusedForNow(Throwable failure) {
        return RedisFailures.isRefusedForNow(failure) || MySqlFailures.isRefusedForNow(failure);
    }

    /** The store failure behind {@code e}, if that is what it is. */
    private static @Nullable DataAccessException unavailable(Throwable e) {
        // Bounded: a chain of causes may loop.
        Throwable cause = e;
        for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
            if (cause instanceof DataAccessResourceFailureException || cause instanceof TransientDataAccessException
                    || cause instanceof DataAccessException && refusedForNow(cause)) {
                return (DataAccessException) cause;
            }
        }
        return null;
    }
}
