package dev.tributary.api.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiTest;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Every retention job is scheduled, and what a sweep removes is counted under its name. */
@ApiTest
class RetentionJobsTest {

    @Autowired RetentionJobs scheduler;
    @Autowired List<RetentionJob> jobs;
    @Autowired MeterRegistry meters;
    @Autowired JdbcClient jdbc;

    @Test
    void theJobsAreKnownByName() {
        assertThat(jobs).extracting(RetentionJob::name)
                .containsExactlyInAnyOrder("oauth-authorizations", "oauth-apps", "oauth-retired-refresh-tokens",
                        "orphaned-comments", "retired-feed-items", "article-cache", "pulled-items");
        assertThat(scheduler.isRunning()).as("the test node has the fanout role").isTrue();
    }

    @Test
    void aSweepCountsWhatItRemovedUnderTheJobsName() {
        // A comment whose item never existed (as one whose item was purged would be).
        long item = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50);
        jdbc.sql("INSERT INTO comments (item_id, id, user_id, text, created_at) VALUES (?, ?, 1, 'x', UTC_TIMESTAMP(6))")
                .params(item, item).update();
        jdbc.sql("INSERT INTO item_reactions (item_id, likes, comments) VALUES (?, 0, 1)").param(item).update();
        RetentionJob orphans = jobs.stream().filter(job -> job.name().equals("orphaned-comments")).findFirst().orElseThrow();
        double before = removed("orphaned-comments");

        long swept = scheduler.sweep(orphans);

        assertThat(swept).isGreaterThanOrEqualTo(1);
        assertThat(removed("orphaned-comments") - before).isEqualTo(swept);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM comments WHERE item_id = ?").param(item).query(Long.class).single()).isZero();
    }

    private double removed(String job) {
        return meters.get("tributary.retention.removed").tag("job", job).counter().count();
    }
}
