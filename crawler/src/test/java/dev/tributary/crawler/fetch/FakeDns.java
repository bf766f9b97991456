package dev.tributary.crawler.fetch;

import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.resolver.InetSocketAddressResolver;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Name resolution from a table instead of DNS, so tests never query a real resolver. A name may
 * answer differently on each lookup (rebinding); unknown names fail as NXDOMAIN would.
 */
final class FakeDns extends AddressResolverGroup<InetSocketAddress> {

    private final Function<String, List<InetAddress>> answers;
    private final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();

    private FakeDns(Function<String, List<InetAddress>> answers) {
        this.answers = answers;
    }

    static FakeDns of(Map<String, String> table) {
        return new FakeDns(name -> table.containsKey(name) ? List.of(address(table.get(name))) : List.of());
    }

    /** One name with several addresses, in the order given. */
    static FakeDns of(String name, String... addresses) {
        List<InetAddress> all = java.util.Arrays.stream(addresses).map(FakeDns::address).toList();
        return new FakeDns(host -> host.equals(name) ? all : List.of());
    }

    /** Answers {@code name} with {@code first} once, then with {@code later}: a rebinding name. */
    static FakeDns rebinding(String name, String first, String later) {
        AtomicInteger count = new AtomicInteger();
        return new FakeDns(host -> host.equals(name) ? List.of(address(count.getAndIncrement() == 0 ? first : later)) : List.of());
    }

    static InetAddress address(String literal) {
        try {
            return InetAddress.getByAddress(literal, io.netty.util.NetUtil.createByteArrayFromIpAddressString(literal));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    int lookups(String name) {
        AtomicInteger count = lookups.get(name);
        return count == null ? 0 : count.get();
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new InetSocketAddressResolver(executor, new InetNameResolver(executor) {
            @Override
            protected void doResolve(String host, Promise<InetAddress> promise) {
                List<InetAddress> all = lookup(host);
                if (all.isEmpty()) {
                    promise.setFailure(new UnknownHostException(host));
                } else {
                    promise.setSuccess(all.getFirst());
                }
            }

            @Override
            protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                List<InetAddress> all = lookup(host);
                if (all.isEmpty()) {
                    promise.setFailure(new UnknownHostException(host));
                } else {
                    promise.setSuccess(all);
                }
            }
        });
    }

    private List<InetAddress> lookup(String host) {
        lookups.computeIfAbsent(host, h -> new AtomicInteger()).incrementAndGet();
        return answers.apply(host);
    }
}
