package dev.tributary.api.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * The client address that per-address limits count against. An IPv4 address is itself; an IPv6
 * address is its /64, the block one subscriber is usually given: otherwise one client could
 * take a fresh address, and a fresh bucket, for every request.
 */
public final class ClientAddress {

    private ClientAddress() {
    }

    /** The key of {@code remoteAddress} (the server's reading of the connection, an IP literal). */
    public static String of(String remoteAddress) {
        if (remoteAddress.indexOf(':') < 0 || !remoteAddress.chars().allMatch(ClientAddress::literal)) {
            return remoteAddress; // IPv4 (or a Unix socket, a test's made-up name): counted as given
        }
        byte[] bytes;
        try {
            // Hex digits, ':' and '.' only, so it is parsed as a literal and never looked up in DNS.
            bytes = InetAddress.getByName(remoteAddress).getAddress();
        } catch (UnknownHostException | SecurityException notALiteral) {
            return remoteAddress;
        }
        if (bytes.length != 16) {
            return remoteAddress;
        }
        Arrays.fill(bytes, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(bytes).getHostAddress() + "/64";
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException("16 bytes are an IPv6 address", impossible);
        }
    }

    private static boolean literal(int c) {
        return Character.digit(c, 16) >= 0 || c == ':' || c == '.';
    }
}
