package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.resolver.AddressResolver;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The guard applied to name resolution: the connector is only ever handed allowed addresses. */
class GuardedResolverGroupTest {

    private final DefaultEventExecutor executor = new DefaultEventExecutor();
    private final AddressGuard guard = new AddressGuard(List.of());

    @AfterEach
    void stop() {
        executor.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private Future<List<InetSocketAddress>> resolveAll(GuardedResolverGroup group, String name) {
        AddressResolver<InetSocketAddress> resolver = group.getResolver(executor);
        return resolver.resolveAll(InetSocketAddress.createUnresolved(name, 80)).awaitUninterruptibly();
    }

    @Test
    void dropsInternalAnswersAndKeepsPublicOnes() {
        try (GuardedResolverGroup group = new GuardedResolverGroup(FakeDns.of("mixed.example.test", "10.0.0.1", "203.0.113.7", "::1"), guard)) {
            Future<List<InetSocketAddress>> answer = resolveAll(group, "mixed.example.test");

            assertThat(answer.isSuccess()).isTrue();
            assertThat(answer.getNow()).extracting(a -> a.getAddress().getHostAddress()).containsExactly("203.0.113.7");
            Future<InetSocketAddress> one = group.getResolver(executor).resolve(InetSocketAddress.createUnresolved("mixed.example.test", 80))
                    .awaitUninterruptibly();
            assertThat(one.getNow().getAddress().getHostAddress()).isEqualTo("203.0.113.7");
        }
    }

    @Test
    void failsANameWithOnlyInternalAnswersAsBlocked() {
        try (GuardedResolverGroup group = new GuardedResolverGroup(FakeDns.of("metadata.example.test", "169.254.169.254"), guard)) {
            Future<List<InetSocketAddress>> answer = resolveAll(group, "metadata.example.test");

            assertThat(answer.cause()).isInstanceOfSatisfying(FetchAbort.class, abort -> {
                assertThat(abort.reason()).isEqualTo(FailureReason.BLOCKED_ADDRESS);
                assertThat(abort.getMessage()).contains("link-local");
            });
        }
    }

    @Test
    void judgesEachLookupOfARebindingNameAfresh() {
        try (GuardedResolverGroup group = new GuardedResolverGroup(FakeDns.rebinding("rebind.example.test", "203.0.113.7", "127.0.0.1"), guard)) {
            assertThat(resolveAll(group, "rebind.example.test").isSuccess()).isTrue();
            assertThat(resolveAll(group, "rebind.example.test").cause()).isInstanceOf(FetchAbort.class);
        }
    }

    @Test
    void passesLookupFailuresThrough() {
        try (GuardedResolverGroup group = new GuardedResolverGroup(FakeDns.of(java.util.Map.of()), guard)) {
            assertThat(resolveAll(group, "nowhere.example.test").cause()).isInstanceOf(UnknownHostException.class);
        }
    }
}
