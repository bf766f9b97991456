package dev.tributary.pubsub;

/**
 * One person's allowance for matching their rules within one batch (a fan-out batch, a
 * back-fill): each item may cost at most the item budget, all items together the batch budget.
 * Costs are charged before a rule runs ({@link RuleMatcher#cost} is an upper bound), so what is
 * spent never passes either budget.
 */
final class RuleBudget {

    private final long perItem;
    private long batchLeft;
    private long itemLeft;
    private long itemSpent;
    private boolean itemOverrun;

    RuleBudget(long perItem, long perBatch) {
        this.perItem = perItem;
        this.batchLeft = perBatch;
    }

    /** Starts the next item: its allowance is the item budget or what the batch has left, whichever is less. */
    void startItem() {
        itemLeft = Math.min(perItem, batchLeft);
        itemSpent = 0;
        itemOverrun = false;
    }

    /** Takes {@code cost} from the item's allowance if it fits; false (and the item marked overrun) if not. */
    boolean charge(long cost) {
        if (cost > itemLeft) {
            itemOverrun = true;
            return false;
        }
        itemLeft -= cost;
        batchLeft -= cost;
        itemSpent += cost;
        return true;
    }

    long itemSpent() {
        return itemSpent;
    }

    /** Whether a rule of the current item was not run for want of budget. */
    boolean itemOverrun() {
        return itemOverrun;
    }
}
