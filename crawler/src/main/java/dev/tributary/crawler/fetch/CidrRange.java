package dev.tributary.crawler.fetch;

import io.netty.util.NetUtil;
import java.net.InetAddress;

/** An IPv4 or IPv6 address range in CIDR notation, parsed without any DNS lookup. */
record CidrRange(byte[] network, int prefixLength) {

    /**
     * Parses {@code 10.0.0.0/8}, {@code fc00::/7}, or a bare address (a single-address range).
     * Host bits past the prefix are ignored, as most tools do.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    static CidrRange parse(String text) {
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String addressPart = slash < 0 ? trimmed : trimmed.substring(0, slash);
        if (addressPart.startsWith("[") && addressPart.endsWith("]")) {
            addressPart = addressPart.substring(1, addressPart.length() - 1);
        }
        // NetUtil only accepts literals, so a host name here can never trigger a lookup.
        byte[] address = addressPart.indexOf('%') >= 0 ? null : NetUtil.createByteArrayFromIpAddressString(addressPart);
        if (address == null) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR range: '" + addressPart + "' is not an IPv4 or IPv6 address");
        }
        int maxPrefix = address.length * 8;
        int prefix = maxPrefix;
        if (slash >= 0) {
            String prefixPart = trimmed.substring(slash + 1);
            if (prefixPart.isEmpty() || prefixPart.length() > 3 || !prefixPart.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("'" + text + "' is not a CIDR range: the prefix length must be a number from 0 to " + maxPrefix);
            }
            prefix = Integer.parseInt(prefixPart);
            if (prefix > maxPrefix) {
                throw new IllegalArgumentException("'" + text + "' is not a CIDR range: prefix length " + prefix + " is more than " + maxPrefix);
            }
        }
        return new CidrRange(mask(address, prefix), prefix);
    }

    boolean contains(InetAddress address) {
        return contains(address.getAddress());
    }

    boolean contains(byte[] candidate) {
        if (candidate.length != network.length) {
            return false;
        }
        int fullBytes = prefixLength / 8;
        for (int i = 0; i < fullBytes; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int restBits = prefixLength % 8;
        if (restBits == 0) {
            return true;
        }
        int byteMask = (0xff << (8 - restBits)) & 0xff;
        return (candidate[fullBytes] & byteMask) == (network[fullBytes] & 0xff);
    }

    private static byte[] mask(byte[] address, int prefix) {
        byte[] masked = address.clone();
        for (int bit = prefix; bit < masked.length * 8; bit++) {
            masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return masked;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (java.net.UnknownHostException impossible) {
            return "?/" + prefixLength;
        }
    }
}
