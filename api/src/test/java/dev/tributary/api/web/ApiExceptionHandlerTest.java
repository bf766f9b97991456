package dev.tributary.api.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
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
    }

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new BuggyController())
            .setControllerAdvice(new ApiExceptionHandler()).build();

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
}
