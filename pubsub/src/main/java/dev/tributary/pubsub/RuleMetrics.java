package dev.tributary.pubsub;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Filter rules' meters: what matching one person's rules on one item cost (in
 * {@link RuleSettings} units), the items delivered with some rule not run for want of budget,
 * and matching done inside a database transaction (which should never happen: it would hold the
 * transaction's locks while rules run).
 */
@Component
class RuleMetrics {

    private final DistributionSummary itemCost;
    private final Counter overruns;
    private final Counter inTransaction;
    /** Exact, for checks: the summary's own max decays with its time window. */
    private final AtomicLong maxItemCost = new AtomicLong();

    RuleMetrics(ObjectProvider<MeterRegistry> registries) {
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        itemCost = DistributionSummary.builder("tributary.rules.item.cost")
                .description("cost of matching one person's rules on one item, in instruction-characters").register(registry);
        overruns = Counter.builder("tributary.rules.overruns")
                .description("items delivered with some of their person's rules not run for want of budget").register(registry);
        inTransaction = Counter.builder("tributary.rules.in.transaction")
                .description("rule matchings run inside a database transaction").register(registry);
    }

    void itemMatched(long cost, boolean overrun) {
        itemCost.record(cost);
        maxItemCost.accumulateAndGet(cost, Math::max);
        if (overrun) {
            overruns.increment();
        }
    }

    void matchedInTransaction() {
        inTransaction.increment();
    }

    /** The most one person's rules have cost on one item so far. */
    long maxItemCost() {
        return maxItemCost.get();
    }

    long overruns() {
        return (long) overruns.count();
    }

    long matchedInTransactionCount() {
        return (long) inTransaction.count();
    }
}
