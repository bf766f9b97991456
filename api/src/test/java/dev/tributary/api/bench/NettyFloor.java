package dev.tributary.api.bench;

import java.net.InetSocketAddress;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The physical floor beside the app: bare Reactor Netty on the same machine, in the same JVM and
 * run, answering {@code GET} of the baseline's path with the same constant body when an
 * {@code Authorization} header is present (no token check, no framework): what one HTTP exchange
 * costs here with nothing else in the way, as the seed's Netty test measured it.
 */
final class NettyFloor implements AutoCloseable {

    private final DisposableServer server;

    NettyFloor(String path, byte[] body) {
        byte[] answer = body.clone();
        this.server = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes.get(path, (request, response) -> request.requestHeaders().contains("Authorization")
                        ? response.header("Content-Type", "application/json")
                                .header("Content-Length", Integer.toString(answer.length))
                                .sendByteArray(Mono.just(answer))
                        : response.status(401).header("Content-Length", "0").send()))
                .bindNow();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.address();
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
