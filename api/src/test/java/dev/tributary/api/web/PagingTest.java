package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.TimelineQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Paging is where a page size is checked: every limit it lets through must be one the domain
 * accepts (TimelineQuery and Items refuse others with IllegalArgumentException, a 500).
 */
class PagingTest {

    @Test
    void everyLimitItAcceptsIsOneTheDomainAccepts() {
        assertThat(Paging.MAX_LIMIT).isLessThanOrEqualTo(TimelineQuery.MAX_LIMIT).isLessThanOrEqualTo(Items.MAX_PAGE);
        assertThat(Paging.of(null, null, null, null).limit()).isBetween(1, Paging.MAX_LIMIT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "101", "2147483648", "1e3", "abc", " 5"})
    void otherLimitsAreA400NamingIt(String limit) {
        assertThatThrownBy(() -> Paging.of(limit, null, null, null))
                .isInstanceOfSatisfying(ApiProblem.class, problem -> {
                    assertThat(problem.getStatusCode().value()).isEqualTo(400);
                    assertThat(problem.getBody().getDetail()).contains("limit");
                });
    }
}
