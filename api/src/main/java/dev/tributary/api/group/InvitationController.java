package dev.tributary.api.group;

import dev.tributary.api.account.Accounts;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.GroupInvitations;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Invitation;
import dev.tributary.pubsub.Stored;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's invitations to groups: list, accept (join), decline, and refuse a group's
 * invitations altogether (a block, which they may lift). Someone else's invitation id is a 404.
 */
@RestController
class InvitationController {

    private final GroupInvitations invitations;
    private final Groups groups;
    private final Accounts accounts;

    InvitationController(GroupInvitations invitations, Groups groups, Accounts accounts) {
        this.invitations = invitations;
        this.groups = groups;
        this.accounts = accounts;
    }

    @GetMapping("/api/v1/invitations")
    List<InvitationView> mine(Caller caller) {
        List<Invitation> pending = invitations.of(caller.userId());
        Map<Long, String> names = accounts.getAll(pending.stream().flatMap(i -> List.of(i.userId(), i.inviterId()).stream())
                        .distinct().toList()).stream()
                .collect(Collectors.toMap(StoredAccount::id, a -> a.body().username(), (a, b) -> a));
        return pending.stream().flatMap(i -> groups.find(i.groupId()).map(g -> view(i, g, names)).stream()).toList();
    }

    /** Joins the group; 201 with the membership. */
    @PostMapping("/api/v1/invitations/{id}/accept")
    @ResponseStatus(HttpStatus.CREATED)
    MemberView accept(Caller caller, @PathVariable String id) {
        Invitation accepted = invitations.accept(caller.userId(), Ids.path(id, "invitation"))
                .orElseThrow(() -> ApiProblem.notFound("invitation"));
        String username = accounts.find(caller.userId()).map(a -> a.body().username()).orElse("");
        return new MemberView(Ids.format(accepted.groupId()), Ids.format(caller.userId()), username);
    }

    /** Declines; with {@code block=true} the group may not invite the caller again. */
    @DeleteMapping("/api/v1/invitations/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void decline(Caller caller, @PathVariable String id, @RequestParam(defaultValue = "false") boolean block) {
        if (!invitations.decline(caller.userId(), Ids.path(id, "invitation"), block)) {
            throw ApiProblem.notFound("invitation");
        }
    }

    /** Refuses every further invitation from the group (a pending one is dropped). */
    @PutMapping("/api/v1/groups/{id}/block")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void block(Caller caller, @PathVariable String id) {
        invitations.block(caller.userId(), group(id).id());
    }

    @DeleteMapping("/api/v1/groups/{id}/block")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void unblock(Caller caller, @PathVariable String id) {
        if (!invitations.unblock(caller.userId(), group(id).id())) {
            throw ApiProblem.notFound("block");
        }
    }

    private Stored<Group> group(String id) {
        return groups.find(Ids.path(id, "group")).orElseThrow(() -> ApiProblem.notFound("group"));
    }

    static InvitationView view(Invitation invitation, Stored<Group> group, Map<Long, String> names) {
        return new InvitationView(Ids.format(invitation.id()), Ids.format(group.id()), group.body().name(),
                names.getOrDefault(invitation.userId(), ""), names.getOrDefault(invitation.inviterId(), ""),
                invitation.createdAt());
    }
}
