package dev.tributary.pubsub;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedPubsub
class GroupsTest {

    @Autowired Groups groups;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Items items;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired org.springframework.jdbc.core.simple.JdbcClient jdbc;

    @Test
    void aMembersPostReachesEveryMemberAndTheGroupFeed() {
        long owner = fixtures.person();
        long member = fixtures.person();
        long outsider = fixtures.person();
        Stored<Group> group = groups.create(owner, "  Climbers  ");
        groups.addMember(group.id(), member);

        long post = groups.post(group.id(), member, entry("hello")).created().getFirst();
        fanout.drain();

        assertThat(group.body().name()).isEqualTo("Climbers");
        assertThat(sources.get(group.body().sourceId()).body().kind()).isEqualTo(SourceKind.GROUP);
        assertThat(fixtures.inbox(owner)).containsExactly(post);
        assertThat(fixtures.inbox(member)).containsExactly(post);
        assertThat(fixtures.inbox(outsider)).isEmpty();
        assertThat(items.ofSource(group.body().sourceId(), null, null, 10)).extracting(Stored::id).containsExactly(post);
        assertThatThrownBy(() -> groups.post(group.id(), outsider, entry("intrude"))).isInstanceOf(NotAMemberException.class);
    }

    @Test
    void membershipIsIdempotentAndLeavingStopsDeliveryButKeepsHistory() {
        long owner = fixtures.person();
        long member = fixtures.person();
        Stored<Group> group = groups.create(owner, "Readers");
        assertThat(groups.addMember(group.id(), member)).isTrue();
        assertThat(groups.addMember(group.id(), member)).isFalse();
        long before = groups.post(group.id(), owner, entry("one")).created().getFirst();
        fanout.drain();

        assertThat(groups.removeMember(group.id(), member)).isTrue();
        assertThat(groups.removeMember(group.id(), member)).isFalse();
        groups.post(group.id(), owner, entry("two"));
        fanout.drain();

        assertThat(fixtures.inbox(member)).containsExactly(before);
        assertThat(groups.isMember(group.id(), member)).isFalse();
        assertThat(groups.members(group.id(), 0, 10)).containsExactly(owner);
        assertThat(groups.groupsOf(owner)).contains(group.id());
        assertThat(subscriptions.find(member, group.body().sourceId())).isEmpty();
    }

    @Test
    void refusesBadNamesAndUnknownGroups() {
        long owner = fixtures.person();
        assertThatThrownBy(() -> groups.create(owner, " ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> groups.create(owner, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> groups.create(owner, "x".repeat(Groups.MAX_NAME_LENGTH + 1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> groups.addMember(Long.MAX_VALUE, owner)).isInstanceOf(GroupNotFoundException.class);
        long feed = fixtures.feed();
        assertThat(groups.find(feed)).as("a source id is not a group").isEmpty();
        assertThat(groups.find(-5)).isEmpty();
    }

    @Test
    void onlyAnOpenGroupIsJoinedAndClosingItKeepsItsMembers() {
        long owner = fixtures.person();
        long member = fixtures.person();
        long later = fixtures.person();
        Stored<Group> group = groups.create(owner, "Quiet");

        assertThat(group.body().open()).isFalse();
        assertThatThrownBy(() -> groups.join(group.id(), member)).isInstanceOf(GroupClosedException.class);
        assertThat(groups.join(group.id(), owner)).as("a member joining again is no change, open or not").isFalse();
        assertThat(groups.setOpen(group.id(), true).body().open()).isTrue();
        assertThat(groups.join(group.id(), member)).isTrue();
        assertThat(groups.join(group.id(), member)).isFalse();
        assertThat(groups.setOpen(group.id(), false).body().open()).isFalse();
        assertThat(groups.get(group.id()).body().open()).isFalse();
        assertThatThrownBy(() -> groups.join(group.id(), later)).isInstanceOf(GroupClosedException.class);
        assertThat(groups.isMember(group.id(), member)).isTrue();
        assertThat(subscriptions.find(member, group.body().sourceId())).isPresent();
        assertThat(groups.create(owner, "Open house", true).body().open()).isTrue();
        assertThatThrownBy(() -> groups.setOpen(999_999_999L, true)).isInstanceOf(GroupNotFoundException.class);
    }

    @Test
    void aGroupStoredBeforeGroupsCouldOpenReadsAsClosed() {
        Stored<Group> group = groups.create(fixtures.person(), "Old", true);
        // The body as written before the field existed: tag 0 (plain JSON), no "open".
        byte[] json = ("{\"name\":\"Old\",\"ownerId\":" + group.body().ownerId() + ",\"sourceId\":" + group.body().sourceId()
                + ",\"createdAt\":\"2026-11-01T00:00:00Z\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] body = new byte[json.length + 1];
        System.arraycopy(json, 0, body, 1, json.length);
        jdbc.sql("UPDATE entities SET body = ? WHERE id = ?").params(body, group.id()).update();

        assertThat(groups.get(group.id()).body().open()).isFalse();
        assertThat(groups.get(group.id()).body().name()).isEqualTo("Old");
    }

    /** Issue 52: a closed group is its members' alone, so nobody else may follow it and those who did stop. */
    @Test
    void onlyMembersFollowAClosedGroupAndStrangersFollowingsEnd() {
        long owner = fixtures.person();
        long stranger = fixtures.person();
        long staleFollower = fixtures.person();
        Stored<Group> closed = groups.create(owner, "Closed");
        long source = closed.body().sourceId();

        assertThatThrownBy(() -> subscriptions.subscribe(stranger, source, null)).isInstanceOf(SourceNotFoundException.class);
        assertThatThrownBy(() -> subscriptions.subscribeAll(stranger, List.of(new Subscriptions.Wanted(source, null))))
                .isInstanceOf(SourceNotFoundException.class);
        assertThat(subscriptions.find(stranger, source)).isEmpty();

        // A following made before closed groups were members-only, written as it was stored then.
        Stored<Group> open = groups.create(owner, "Open", true);
        subscriptions.subscribe(staleFollower, open.body().sourceId(), null);
        jdbc.sql("INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at) VALUES (?, ?, ?, 31, NOW())")
                .params(staleFollower, source, fixtures.person()).update();
        jdbc.sql("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES (?, ?, 31)").params(source, staleFollower).update();

        new ClosedGroupSweep(groups).run(null);

        assertThat(subscriptions.find(staleFollower, source)).as("the closed group's stranger stops following").isEmpty();
        assertThat(subscriptions.find(staleFollower, open.body().sourceId())).as("an open group's follower stays").isPresent();
        assertThat(subscriptions.find(owner, source)).as("members keep theirs").isPresent();

        groups.setOpen(open.id(), false);

        assertThat(subscriptions.find(staleFollower, open.body().sourceId())).as("closing ends a stranger's following").isEmpty();
        assertThat(subscriptions.find(owner, open.body().sourceId())).isPresent();
    }
}
