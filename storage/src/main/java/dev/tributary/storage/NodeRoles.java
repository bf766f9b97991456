package dev.tributary.storage;

import jakarta.validation.constraints.NotEmpty;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What this node runs ({@code tributary.roles}): every node shares one artifact and one
 * database, and background work is claimed from MySQL, so roles only say which loops start here.
 * Each module names its own role; the application checks the names at start-up.
 */
@ConfigurationProperties("tributary")
@Validated
public record NodeRoles(@NotEmpty @DefaultValue({"api", "crawler", "fanout"}) Set<String> roles) {

    public NodeRoles {
        roles = roles == null ? Set.of() : roles.stream().map(role -> role.trim().toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Whether this node runs the role of that name (lower case). */
    public boolean runs(String role) {
        return roles.contains(role);
    }
}
