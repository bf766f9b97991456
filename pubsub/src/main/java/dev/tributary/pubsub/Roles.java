package dev.tributary.pubsub;

import dev.tributary.storage.NodeRoles;
import java.util.Set;
import org.springframework.stereotype.Component;

/** Which roles this node runs ({@code tributary.roles}, lower case), so each module starts only its loops. */
@Component
public final class Roles {

    private final NodeRoles roles;

    public Roles(NodeRoles roles) {
        this.roles = roles;
    }

    /** Whether this node runs the role of that name (lower case). */
    public boolean runs(String role) {
        return roles.runs(role);
    }

    /** Every role this node was told to run, as configured (trimmed, lower case). */
    public Set<String> names() {
        return roles.roles();
    }
}
