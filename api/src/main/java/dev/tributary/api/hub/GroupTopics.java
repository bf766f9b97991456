package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopic;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * What the hub does when a group is opened or closed. A closed group's feed is not served, so its
 * topics end: every subscription is dropped and its subscriber told ({@code hub.mode=denied}), and
 * opening the group again does not bring them back (a subscriber subscribes again). Nothing waits
 * for that to be distributed: every delivery reads the topic afresh and sends nothing for a closed
 * group ({@link Distributor}). The topics are made due here, so any node's {@link TopicWatch}
 * ends them within its next round rather than at the next notice or periodic check.
 */
@Component
public class GroupTopics {

    private final Topics topics;

    GroupTopics(Topics topics) {
        this.topics = topics;
    }

    /** The group was opened or closed: its topics are checked at once. */
    public void openChanged(long groupId) {
        topics.due(List.of(FeedTopic.key(FeedTopic.Kind.GROUP, groupId, "atom"), FeedTopic.key(FeedTopic.Kind.GROUP, groupId, "rss")));
    }
}
