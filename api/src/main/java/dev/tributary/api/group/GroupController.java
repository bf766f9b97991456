package dev.tributary.api.group;

import dev.tributary.api.web.NonBlank;
import dev.tributary.api.hub.GroupTopics;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Accounts;
import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.post.PostRequest;
import dev.tributary.api.post.Posts;
import dev.tributary.api.web.Caller;
import dev.tributary.api.source.SourcePages;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Account;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.GroupClosedException;
import dev.tributary.pubsub.GroupInvitations;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Invitation;
import dev.tributary.pubsub.SourceReach;
import dev.tributary.pubsub.Stored;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * Groups. Anyone may see that a group exists (its name and whether it is open); only members post.
 * An open group is public: anyone may read its feed and members, or follow it. A closed group is
 * private (FriendFeed's private groups): its feed, members, items and source are its current
 * members' alone, everywhere ({@link SourceReach} decides for every path); anyone else is
 * answered for them with the 404 of a group that does not exist.
 * The owner invites others, who become members only by accepting (see {@link InvitationController}),
 * since members receive the group's posts at home; anyone may join an {@code open} group by
 * themselves (naming themselves as the new member). Groups are closed unless the owner opens them:
 * a member's post reaches every member's home timeline, so letting strangers in is the owner's
 * choice, not a default. Anyone may leave (refusing further invitations with {@code block=true}).
 * The owner may remove anyone but themselves, and cannot leave, so a group always has someone to run it.
 */
@RestController
class GroupController {

    private final Groups groups;
    private final Accounts accounts;
    private final Posts posts;
    private final ItemViews itemViews;
    private final SourcePages pages;
    private final GroupInvitations invitations;
    private final SourceReach reach;
    private final GroupTopics hubTopics;

    GroupController(Groups groups, Accounts accounts, Posts posts, ItemViews itemViews, SourcePages pages,
            GroupInvitations invitations, SourceReach reach, GroupTopics hubTopics) {
        this.hubTopics = hubTopics;
        this.reach = reach;
        this.invitations = invitations;
        this.groups = groups;
        this.accounts = accounts;
        this.posts = posts;
        this.itemViews = itemViews;
        this.pages = pages;
    }

    /** {@code open} false (closed) if left out. */
    record NewGroup(@NotNull @NonBlank @Size(max = Groups.MAX_NAME_LENGTH) String name, @Nullable Boolean open) {
    }

    /** What the owner may change. */
    record GroupChange(@NotNull Boolean open) {
    }

    record NewMember(@NotNull @Size(max = 100) String username) {
    }

    @PostMapping("/api/v1/groups")
    @ResponseStatus(HttpStatus.CREATED)
    GroupView create(Caller caller, @Valid @RequestBody NewGroup request) {
        return view(groups.create(caller.userId(), request.name(), Boolean.TRUE.equals(request.open())));
    }

    /** The owner opens the group to anyone who joins, or closes it (members stay). */
    @PatchMapping("/api/v1/groups/{id}")
    GroupView change(Caller caller, @PathVariable String id, @Valid @RequestBody GroupChange request) {
        Stored<Group> group = find(id);
        if (group.body().ownerId() != caller.userId()) {
            throw ApiProblem.forbidden("Only the group's owner may open or close it.");
        }
        Stored<Group> changed = groups.setOpen(group.id(), request.open());
        // A closed group's feed export ends, and with it its WebSub topics (GroupTopics).
        hubTopics.openChanged(group.id());
        return view(changed);
    }

    @GetMapping("/api/v1/groups/{id}")
    GroupView group(@PathVariable String id) {
        return view(find(id));
    }

    /** The groups the caller belongs to. */
    @GetMapping("/api/v1/groups")
    List<GroupView> mine(Caller caller) {
        return groups.groupsOf(caller.userId()).stream().map(groups::find).flatMap(Optional::stream)
                .map(GroupController::view).toList();
    }

    /**
     * The members, in the order they are stored (by id), {@code limit} at a time (default 20, at
     * most 100); {@code since_id} continues after a member, as the {@code next} link says.
     */
    @GetMapping("/api/v1/groups/{id}/members")
    ResponseEntity<List<MemberView>> members(Caller caller, @PathVariable String id,
            @RequestParam(name = "limit", required = false) @Nullable String limit,
            @RequestParam(name = "since_id", required = false) @Nullable String sinceId) {
        Stored<Group> group = readable(caller, id);
        Paging paging = Paging.of(limit, null, sinceId, null);
        List<Long> ids = groups.members(group.id(), paging.sinceId() == null ? 0 : paging.sinceId(), paging.limit());
        List<MemberView> members = accounts.getAll(ids).stream()
                .map(person -> new MemberView(Ids.format(group.id()), Ids.format(person.id()), person.body().username()))
                .toList();
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        if (ids.size() == paging.limit()) {
            String next = ServletUriComponentsBuilder.fromCurrentRequest().replaceQueryParam("since_id", Ids.format(ids.getLast()))
                    .build().toUriString();
            response.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
        }
        return response.body(members);
    }

    /**
     * Joining (naming oneself): 201 when added now, 200 if already a member, 403
     * {@code group_closed} if the group is closed (its owner invites members). Naming someone else
     * (the owner only): 202 with the invitation they may accept, 200 with the membership if they
     * already are a member, 422 {@code invitations_refused} if they blocked the group.
     */
    @PostMapping("/api/v1/groups/{id}/members")
    ResponseEntity<?> addMember(Caller caller, @PathVariable String id, @Valid @RequestBody NewMember request) {
        Stored<Group> group = find(id);
        StoredAccount person = accounts.findByUsername(request.username()).orElseThrow(() -> ApiProblem.unprocessable(
                "no-such-user", "no_such_user", "Nobody is called '" + request.username() + "'."));
        MemberView member = new MemberView(Ids.format(group.id()), Ids.format(person.id()), person.body().username());
        if (person.id() == caller.userId()) {
            boolean added = join(group, person.id());
            return ResponseEntity.status(added ? HttpStatus.CREATED : HttpStatus.OK).body(member);
        }
        if (group.body().ownerId() != caller.userId()) {
            throw ApiProblem.forbidden("Only the group's owner may invite others.");
        }
        if (groups.isMember(group.id(), person.id())) {
            return ResponseEntity.ok(member);
        }
        Invitation invitation = invitations.invite(group.id(), caller.userId(), person.id());
        Map<Long, String> names = Map.of(person.id(), person.body().username(), caller.userId(),
                accounts.find(caller.userId()).map(a -> a.body().username()).orElse(""));
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(InvitationController.view(invitation, group, names));
    }

    private boolean join(Stored<Group> group, long userId) {
        try {
            return groups.join(group.id(), userId);
        } catch (GroupClosedException e) {
            ApiProblem problem = ApiProblem.forbidden("This group is closed: its owner invites its members. "
                    + "Ask them for an invitation, then accept it.");
            problem.getBody().setProperty("reason", "group_closed");
            throw problem;
        }
    }

    /** Removes a member (the owner) or leaves (oneself); {@code block=true} on leaving refuses further invitations. */
    @DeleteMapping("/api/v1/groups/{id}/members/{username}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void removeMember(Caller caller, @PathVariable String id, @PathVariable String username,
            @RequestParam(defaultValue = "false") boolean block) {
        Stored<Group> group = find(id);
        StoredAccount person = accounts.findByUsername(username).orElseThrow(() -> ApiProblem.notFound("member"));
        boolean owner = group.body().ownerId() == caller.userId();
        if (person.id() != caller.userId() && !owner) {
            throw ApiProblem.forbidden("Only the group's owner may remove others; anyone may leave.");
        }
        if (person.id() == group.body().ownerId()) {
            throw ApiProblem.conflict("The owner cannot leave their own group.");
        }
        boolean removed = groups.removeMember(group.id(), person.id());
        if (block && person.id() == caller.userId()) {
            invitations.block(caller.userId(), group.id());
        } else if (!removed) {
            throw ApiProblem.notFound("member");
        }
    }

    @PostMapping("/api/v1/groups/{id}/posts")
    @ResponseStatus(HttpStatus.CREATED)
    ItemView post(Caller caller, @PathVariable String id, @Valid @RequestBody PostRequest request) {
        Stored<Group> group = find(id);
        return itemViews.of(caller.userId(), posts.publishToGroup(group.id(), caller.userId(), request));
    }

    @GetMapping("/api/v1/groups/{id}/feed")
    ResponseEntity<List<ItemView>> feed(Caller caller, @PathVariable String id,
            @RequestParam(required = false) String limit, @RequestParam(name = "max_id", required = false) String maxId,
            @RequestParam(name = "since_id", required = false) String sinceId,
            @RequestParam(name = "min_id", required = false) String minId) {
        Paging paging = Paging.of(limit, maxId, sinceId, minId);
        return pages.response(caller.userId(), List.of(readable(caller, id).body().sourceId()), paging);
    }

    /** The group if the caller may read what is in it: the same 404 as no such group otherwise. */
    private Stored<Group> readable(Caller caller, String id) {
        Stored<Group> group = find(id);
        if (!reach.mayRead(caller.userId(), group.id(), group.body())) {
            throw ApiProblem.notFound("group");
        }
        return group;
    }

    private Stored<Group> find(String id) {
        return groups.find(Ids.path(id, "group")).orElseThrow(() -> ApiProblem.notFound("group"));
    }

    private static GroupView view(Stored<Group> group) {
        return new GroupView(Ids.format(group.id()), group.body().name(), Ids.format(group.body().sourceId()),
                Ids.format(group.body().ownerId()), group.body().open(), group.body().createdAt());
    }
}
