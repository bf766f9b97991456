package dev.tributary.storage;

import jakarta.validation.constraints.NotEmpty;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What this node runs ({@code tributary.roles}, default all): every node shares one artifact
 * and one database, and background work is claimed from MySQL, so roles only say which loops
 * start here.
 */
@ConfigurationProperties("tributary")
@Validated
public record NodeRoles(@NotEmpty @DefaultValue({"api", "crawler", "fanout"}) Set<Role> roles) {

    /** A kind of work a node can take on. */
    public enum Role { API, CRAWLER, FANOUT }

    public boolean runs(Role role) {
        return roles.contains(role);
    }
}
