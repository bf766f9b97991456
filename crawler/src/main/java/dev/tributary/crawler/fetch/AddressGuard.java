package dev.tributary.crawler.fetch;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The SSRF rule: which resolved addresses a feed may be fetched from. Internal addresses
 * (loopback, private, link-local, multicast, unspecified, broadcast, reserved) are refused unless
 * an {@code allowPrivate} range covers them. Always applied to {@link InetAddress}es, never to
 * the url's text, so that odd spellings of an address cannot get around it.
 */
final class AddressGuard {

    private record Blocked(CidrRange range, String kind) {
        Blocked(String cidr, String kind) {
            this(CidrRange.parse(cidr), kind);
        }
    }

    private static final List<Blocked> BLOCKED_V4 = List.of(
            new Blocked("0.0.0.0/8", "unspecified"),
            new Blocked("127.0.0.0/8", "loopback"),
            new Blocked("10.0.0.0/8", "private"),
            new Blocked("172.16.0.0/12", "private"),
            new Blocked("192.168.0.0/16", "private"),
            new Blocked("100.64.0.0/10", "shared (carrier-grade NAT)"),
            new Blocked("169.254.0.0/16", "link-local"),
            new Blocked("192.0.0.0/24", "reserved"),
            new Blocked("198.18.0.0/15", "reserved"),
            new Blocked("224.0.0.0/4", "multicast"),
            new Blocked("255.255.255.255/32", "broadcast"),
            new Blocked("240.0.0.0/4", "reserved"));

    private static final List<Blocked> BLOCKED_V6 = List.of(
            new Blocked("::/128", "unspecified"),
            new Blocked("::1/128", "loopback"),
            new Blocked("fc00::/7", "private (unique local)"),
            new Blocked("fec0::/10", "private (site-local)"),
            new Blocked("64:ff9b:1::/48", "private (local-use NAT64)"),
            new Blocked("fe80::/10", "link-local"),
            new Blocked("ff00::/8", "multicast"),
            new Blocked("100::/64", "reserved"));

    // IPv6 forms that carry an IPv4 address: the IPv4 address is what the packets finally reach.
    private static final CidrRange MAPPED = CidrRange.parse("::ffff:0:0/96");
    // SIIT's IPv4-translated form (RFC 2765), ::ffff:0:a.b.c.d: a stack that translates it reaches a.b.c.d.
    private static final CidrRange TRANSLATED = CidrRange.parse("::ffff:0:0:0/96");
    private static final CidrRange COMPATIBLE = CidrRange.parse("::/96");
    private static final CidrRange NAT64 = CidrRange.parse("64:ff9b::/96");
    private static final CidrRange SIX_TO_FOUR = CidrRange.parse("2002::/16");

    private final List<CidrRange> allowed;

    /** @throws IllegalArgumentException when an entry of {@code allowPrivate} is not a CIDR range */
    AddressGuard(List<String> allowPrivate) {
        List<CidrRange> ranges = new ArrayList<>(allowPrivate.size());
        for (String entry : allowPrivate) {
            try {
                ranges.add(CidrRange.parse(entry));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("FetchLimits.allowPrivate: " + e.getMessage(), e);
            }
        }
        this.allowed = List.copyOf(ranges);
    }

    /** Null when the address may be contacted, else the kind of address it is, e.g. "loopback". */
    @Nullable String refusal(InetAddress address) {
        return refusal(address.getAddress());
    }

    @Nullable String refusal(byte[] address) {
        if (isAllowed(address)) {
            return null;
        }
        if (address.length == 4) {
            return kind(address, BLOCKED_V4);
        }
        byte[] embedded = embeddedIpv4(address);
        if (embedded != null) {
            String kind = isAllowed(embedded) ? null : kind(embedded, BLOCKED_V4);
            return kind == null ? null : kind + " (IPv4 inside IPv6)";
        }
        return kind(address, BLOCKED_V6);
    }

    private boolean isAllowed(byte[] address) {
        for (CidrRange range : allowed) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    private static @Nullable String kind(byte[] address, List<Blocked> table) {
        for (Blocked blocked : table) {
            if (blocked.range().contains(address)) {
                return blocked.kind();
            }
        }
        return null;
    }

    private static byte @Nullable [] embeddedIpv4(byte[] v6) {
        if (MAPPED.contains(v6) || TRANSLATED.contains(v6) || NAT64.contains(v6)) {
            return Arrays.copyOfRange(v6, 12, 16);
        }
        // ::/96 also holds :: and ::1, which are IPv6's own unspecified and loopback addresses.
        if (COMPATIBLE.contains(v6) && !(v6[12] == 0 && v6[13] == 0 && v6[14] == 0 && (v6[15] == 0 || v6[15] == 1))) {
            return Arrays.copyOfRange(v6, 12, 16);
        }
        if (SIX_TO_FOUR.contains(v6)) {
            return Arrays.copyOfRange(v6, 2, 6);
        }
        return null;
    }
}
