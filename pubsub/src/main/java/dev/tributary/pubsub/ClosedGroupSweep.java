package dev.tributary.pubsub;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * At start-up, ends the subscriptions strangers hold to closed groups: before closed groups were
 * members-only anyone could follow one (and kept receiving its posts). Closing a group ends them
 * as it happens ({@link Groups#setOpen}); this mends what was made before. Cheap when there is
 * nothing to mend: one query over the groups' followers who are not members.
 */
@Component
class ClosedGroupSweep implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ClosedGroupSweep.class);

    private final Groups groups;

    ClosedGroupSweep(Groups groups) {
        this.groups = groups;
    }

    @Override
    public void run(ApplicationArguments args) {
        int ended = 0;
        for (long groupId : groups.withOutsiders()) {
            ended += groups.dropOutsiders(groupId);
        }
        if (ended > 0) {
            log.info("Ended {} subscriptions of non-members to closed groups", ended);
        }
    }
}
