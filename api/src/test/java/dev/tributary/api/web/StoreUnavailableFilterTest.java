package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCommandExecutionException;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class StoreUnavailableFilterTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final StoreUnavailableFilter filter = new StoreUnavailableFilter(
            new ProblemWriter(JSON, new BrowserErrorPages(SiteTemplates.engine())));

    /** A servlet (or a filter before it: the token look-up) that fails with {@code failure} after a header and some body. */
    private static MockFilterChain failingWith(RuntimeException failure) {
        return new MockFilterChain(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setHeader("RateLimit-Remaining", "41");
                response.getOutputStream().write("half".getBytes(StandardCharsets.UTF_8));
                throw failure;
            }
        });
    }

    private MockHttpServletResponse run(RuntimeException failure) throws ServletException, IOException {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/timelines/home");
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, failingWith(failure));
        return response;
    }

    @Test
    void aPoolThatGaveNoConnectionInTimeIs503WithRetryAfter() throws Exception {
        MockHttpServletResponse response = run(new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available, request timed out after 5054ms")));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo("5");
        assertThat(response.getContentType()).startsWith("application/problem+json");
        assertThat(response.getHeader("RateLimit-Remaining")).as("headers set before the failure stay").isEqualTo("41");
        JsonNode problem = JSON.readTree(response.getContentAsByteArray());
        assertThat(problem.path("status").asInt()).isEqualTo(503);
        assertThat(problem.path("type").asString()).endsWith("unavailable");
        assertThat(problem.path("instance").asString()).isEqualTo("/api/v1/timelines/home");
    }

    @Test
    void aStoreFailureWrappedByTheChainIsFoundToo() throws Exception {
        MockHttpServletResponse response = run(new IllegalStateException("wrapped", new QueryTimeoutException("Redis command timed out")));

        assertThat(response.getStatus()).isEqualTo(503);
    }

    @Test
    void aRedisThatRefusesForNowIs503AndAnyOtherRedisErrorIsLeftToTheErrorPage() throws Exception {
        LettuceExceptionConverter translate = new LettuceExceptionConverter();
        MockHttpServletResponse response = run(translate.convert(new RedisCommandExecutionException(
                "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.")));
        RuntimeException wrongType = translate.convert(new RedisCommandExecutionException(
                "WRONGTYPE Operation against a key holding the wrong kind of value"));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo("5");
        assertThatThrownBy(() -> run(wrongType)).isSameAs(wrongType);
    }

    @Test
    void anythingElseIsLeftToTheErrorPage() {
        IllegalStateException bug = new IllegalStateException("a bug");

        assertThatThrownBy(() -> run(bug)).isSameAs(bug);
    }

    @Test
    void aResponseAlreadyUnderWayIsNotRewritten() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/timelines/home");
        MockHttpServletResponse response = new MockHttpServletResponse();
        response.setCommitted(true);
        CannotGetJdbcConnectionException failure = new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection");

        assertThatThrownBy(() -> filter.doFilter(request, response, failingWith(failure))).isSameAs(failure);
    }
}
