package dev.tributary.storage.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Finds free TCP ports on 127.0.0.1 for the embedded servers, and tells whether a server still listens on one. */
final class LoopbackPorts {

    private LoopbackPorts() {
    }

    static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free loopback port", e);
        }
    }

    /**
     * Whether something listens on the port: a server busy past its connection limit still
     * accepts the TCP connection, so only a dead process (or one not yet started) answers no.
     */
    static boolean accepting(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
