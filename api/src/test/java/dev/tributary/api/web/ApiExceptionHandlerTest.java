package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.lettuce.core.RedisCommandExecutionException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What the handler makes of exceptions no client input should cause. */
class ApiExceptionHandlerTest {

    /** Stands in for code with a bug: a domain record refusing a value the API let through. */
    @RestController
    static class BuggyController {

        @GetMapping("/bug")
        String bug() {
            throw new IllegalArgumentException("limit must be 1..200, not 0");
        }

        /** As a page read when the pool's twenty connections stayed taken longer than it waits. */
        @GetMapping("/busy")
        String busy() {
            throw new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                    new SQLTransientConnectionException("Connection is not available, request timed out after 5000ms"));
        }

        /** As a Redis command that timed out. */
        @GetMapping("/slow")
        String slow() {
            throw new QueryTimeoutException("Redis command timed out");
        }

        /** As a write to a primary a failover turned read-only, translated as JdbcClient translates it. */
        @GetMapping("/read-only")
        String readOnly() {
            throw translated(new SQLException(
                    "The MariaDB server is running with the --read-only option so it cannot execute this statement", "HY000", 1290));
        }

        /** As a write Redis refused while out of memory. */
        @GetMapping("/redis-full")
        String redisFull() {
            throw new LettuceExceptionConverter().convert(new RedisCommandExecutionException(
                    "OOM command not allowed when used memory > 'maxmemory'."));
        }

        /** An API endpoint with the same bug: API clients, browsers included, always get the problem there. */
        @GetMapping("/api/v1/bug")
        String apiBug() {
            throw new IllegalArgumentException("limit must be 1..200, not 0");
        }

        /** As a row written twice by a bug: a refusal, but not one that passes with time. */
        @GetMapping("/duplicate")
        String duplicate() {
            throw translated(new SQLException("Duplicate entry '1-2' for key 'PRIMARY'", "23000", 1062));
        }
    }

    /** As {@code JdbcTemplate} hands a MySQL error on: translated, or uncategorized where the translator has no answer. */
    private static DataAccessException translated(SQLException error) {
        DataAccessException translated = new SQLErrorCodeSQLExceptionTranslator("MySQL").translate("statement", "SQL", error);
        return translated != null ? translated : new UncategorizedSQLException("statement", "SQL", error);
    }

    private static final BrowserErrorPages PAGES = new BrowserErrorPages(SiteTemplates.engine());
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new BuggyController())
            .setControllerAdvice(new ApiExceptionHandler(PAGES,
                    new ProblemWriter(tools.jackson.databind.json.JsonMapper.builder().build(), PAGES))).build();

    @Test
    void anIllegalArgumentIsABugNotABadRequest() throws Exception {
        mvc.perform(get("/bug").accept(MediaType.APPLICATION_JSON))
                .andExpect(status().isInternalServerError())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:tributary:problem:internal-server-error"))
                .andExpect(jsonPath("$.detail").value("Something went wrong on our side; it has been logged."));
    }

    @Test
    void aStoreTooBusyToAnswerIsA503WithRetryAfterNotABug() throws Exception {
        for (String path : new String[] {"/busy", "/slow"}) {
            mvc.perform(get(path).accept(MediaType.APPLICATION_JSON))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(header().string("Retry-After", "5"))
                    .andExpect(jsonPath("$.type").value("urn:tributary:problem:unavailable"));
        }
    }

    @Test
    void aStoreThatRefusesForNowIsA503TooAndAnyOtherStoreErrorABug() throws Exception {
        for (String path : new String[] {"/read-only", "/redis-full"}) {
            mvc.perform(get(path).accept(MediaType.APPLICATION_JSON))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(header().string("Retry-After", "5"))
                    .andExpect(jsonPath("$.type").value("urn:tributary:problem:unavailable"));
        }
        mvc.perform(get("/duplicate").accept(MediaType.APPLICATION_JSON))
                .andExpect(status().isInternalServerError());
    }

    /** What Chromium sends when a person opens a page. */
    private static final String NAVIGATION_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    @Test
    void aBrowserOpeningAPageGetsAnErrorPageForEveryStatusAndApiClientsTheProblem() throws Exception {
        mvc.perform(get("/bug").header("Accept", NAVIGATION_ACCEPT))
                .andExpect(status().isInternalServerError())
                .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
                .andExpect(content().string(containsString("<h1>Something went wrong</h1>")))
                .andExpect(content().string(containsString("Back to your home timeline")))
                .andExpect(content().string(not(containsString("IllegalArgumentException"))));
        mvc.perform(get("/busy").header("Accept", NAVIGATION_ACCEPT))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
                .andExpect(content().string(containsString("<h1>Unavailable</h1>")));
        // A form posted by the browser (a navigation) to a path that takes only GET: 405 with Allow, as a page.
        mvc.perform(post("/bug").header("Accept", NAVIGATION_ACCEPT).header("Sec-Fetch-Mode", "navigate"))
                .andExpect(status().isMethodNotAllowed())
                .andExpect(header().string("Allow", containsString("GET")))
                .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
                .andExpect(content().string(containsString("<h1>Not allowed here</h1>")));

        // A page's own fetch (no navigation, JSON asked for), any type accepted (curl), or an /api path: the problem.
        mvc.perform(post("/bug").header("Accept", "application/json").header("Sec-Fetch-Mode", "cors"))
                .andExpect(status().isMethodNotAllowed())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(post("/bug").header("Accept", NAVIGATION_ACCEPT))
                .andExpect(status().isMethodNotAllowed())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(get("/bug").header("Accept", "*/*"))
                .andExpect(status().isInternalServerError())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(get("/api/v1/bug").header("Accept", NAVIGATION_ACCEPT))
                .andExpect(status().isInternalServerError())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:tributary:problem:internal-server-error"));
    }

    @Test
    void everyStatusHasWordsForAPerson() {
        for (int status : new int[] {400, 401, 403, 404, 405, 406, 409, 413, 414, 415, 422, 429, 431, 500, 502, 503}) {
            BrowserErrorPages.Wording wording = BrowserErrorPages.Wording.of(status, "30");
            assertThat(wording.title()).as("%d", status).isNotBlank().doesNotContain("{").matches("[A-Z].*");
            assertThat(wording.message()).as("%d", status).endsWith(".").matches("[A-Z].*");
        }
        assertThat(BrowserErrorPages.Wording.of(429, "30").message()).contains("Wait 30 seconds");
        assertThat(BrowserErrorPages.Wording.of(429, "600").message()).contains("Wait 10 minutes");
        assertThat(BrowserErrorPages.Wording.of(429, null).message()).contains("Wait a moment");
    }
}
