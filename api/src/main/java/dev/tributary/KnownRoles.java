package dev.tributary;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.Roles;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.stereotype.Component;

/**
 * Refuses to start a node whose {@code tributary.roles} names a role nobody runs: a misspelt
 * {@code fanotu} would otherwise start a node that silently does no fan-out.
 */
@Component
class KnownRoles {

    /** Every role some module runs; {@code api} serves HTTP, which every node does anyway. */
    static final Set<String> ALL = Set.of("api", CrawlerSettings.ROLE, FanoutSettings.ROLE);

    KnownRoles(Roles roles) {
        Set<String> unknown = new TreeSet<>(roles.names());
        unknown.removeAll(ALL);
        if (!unknown.isEmpty()) {
            throw new IllegalStateException("tributary.roles names unknown roles " + unknown + "; known are " + new TreeSet<>(ALL));
        }
    }
}
