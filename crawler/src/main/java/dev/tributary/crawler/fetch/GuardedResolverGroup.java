package dev.tributary.crawler.fetch;

import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Name resolution as the connector sees it, with the {@link AddressGuard} applied to every
 * answer: addresses the guard refuses are dropped, and a name left with none fails with
 * BLOCKED_ADDRESS. The connector only ever connects to what this returned, so a name that
 * rebinds between two lookups is judged on the answer actually used.
 */
final class GuardedResolverGroup extends AddressResolverGroup<InetSocketAddress> {

    private final AddressResolverGroup<InetSocketAddress> names;
    private final AddressGuard guard;

    GuardedResolverGroup(AddressResolverGroup<InetSocketAddress> names, AddressGuard guard) {
        this.names = names;
        this.guard = guard;
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new GuardedResolver(executor, names.getResolver(executor), guard);
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            names.close();
        }
    }

    private static final class GuardedResolver extends AbstractAddressResolver<InetSocketAddress> {

        private final AddressResolver<InetSocketAddress> names;
        private final AddressGuard guard;

        GuardedResolver(EventExecutor executor, AddressResolver<InetSocketAddress> names, AddressGuard guard) {
            super(executor, InetSocketAddress.class);
            this.names = names;
            this.guard = guard;
        }

        @Override
        protected boolean doIsResolved(InetSocketAddress address) {
            return !address.isUnresolved();
        }

        @Override
        protected void doResolve(InetSocketAddress unresolved, Promise<InetSocketAddress> promise) {
            names.resolveAll(unresolved).addListener((Future<List<InetSocketAddress>> answer) -> {
                try {
                    promise.trySuccess(allowed(answer).getFirst());
                } catch (Exception e) {
                    promise.tryFailure(e);
                }
            });
        }

        @Override
        protected void doResolveAll(InetSocketAddress unresolved, Promise<List<InetSocketAddress>> promise) {
            names.resolveAll(unresolved).addListener((Future<List<InetSocketAddress>> answer) -> {
                try {
                    promise.trySuccess(allowed(answer));
                } catch (Exception e) {
                    promise.tryFailure(e);
                }
            });
        }

        private List<InetSocketAddress> allowed(Future<List<InetSocketAddress>> answer) throws Exception {
            if (!answer.isSuccess()) {
                throw answer.cause() instanceof Exception e ? e : new UnknownHostException("lookup failed");
            }
            List<InetSocketAddress> resolved = answer.getNow();
            List<InetSocketAddress> allowed = new ArrayList<>(resolved.size());
            String refused = null;
            for (InetSocketAddress address : resolved) {
                String kind = address.getAddress() == null ? "unresolved" : guard.refusal(address.getAddress());
                if (kind == null) {
                    allowed.add(address);
                } else if (refused == null) {
                    refused = kind;
                }
            }
            if (allowed.isEmpty()) {
                if (refused == null) {
                    throw new UnknownHostException("no addresses");
                }
                throw new FetchAbort(FailureReason.BLOCKED_ADDRESS, "refused: the host resolves to a non-public address (" + refused + ")");
            }
            return allowed;
        }

        @Override
        public void close() {
            // The wrapped resolver belongs to its own group, which closes it.
        }
    }
}
