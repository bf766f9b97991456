package dev.tributary;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.Roles;
import dev.tributary.storage.NodeRoles;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KnownRolesTest {

    @Test
    void everyRoleAModuleRunsIsAccepted() {
        assertThatCode(() -> new KnownRoles(new Roles(new NodeRoles(Set.of("api", "crawler", "fanout"))))).doesNotThrowAnyException();
        assertThatCode(() -> new KnownRoles(new Roles(new NodeRoles(Set.of(" Fanout "))))).doesNotThrowAnyException();
    }

    @Test
    void aMisspeltRoleStopsTheStart() {
        assertThatThrownBy(() -> new KnownRoles(new Roles(new NodeRoles(Set.of("api", "fanotu")))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("[fanotu]");
    }
}
