package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which addresses the SSRF guard lets through, by address class. */
class AddressGuardTest {

    private final AddressGuard guard = new AddressGuard(List.of());

    @ParameterizedTest
    @CsvSource({"127.0.0.1, loopback", "127.255.255.254, loopback", "::1, loopback", "0.0.0.0, unspecified", "0.1.2.3, unspecified",
            ":: , unspecified", "10.0.0.1, private", "10.255.255.255, private", "172.16.0.1, private", "172.31.255.255, private",
            "192.168.0.1, private", "100.64.0.1, shared", "100.127.255.255, shared", "169.254.169.254, link-local", "fe80::1, link-local",
            "febf::1, link-local", "fc00::1, private", "fdff:ffff::1, private", "fec0::1, private", "224.0.0.1, multicast",
            "239.255.255.250, multicast", "ff02::1, multicast", "255.255.255.255, broadcast", "240.0.0.1, reserved",
            "198.18.0.1, reserved", "192.0.0.8, reserved", "100::1, reserved", "64:ff9b:1::a00:1, private"})
    void refusesInternalAddressClasses(String address, String kind) throws Exception {
        assertThat(guard.refusal(InetAddress.getByName(address))).startsWith(kind);
    }

    @ParameterizedTest
    @CsvSource({"::ffff:127.0.0.1, loopback", "::127.0.0.1, loopback", "::10.0.0.1, private", "64:ff9b::7f00:1, loopback",
            "64:ff9b::a9fe:a9fe, link-local", "64:ff9b::c0a8:101, private", "2002:7f00:1::1, loopback", "2002:a00:1::, private",
            "2002:a9fe:a9fe::, link-local", "::0.0.0.2, unspecified", "::ffff:0:7f00:1, loopback", "::ffff:0:a9fe:a9fe, link-local",
            "::ffff:0:a01:203, private"})
    void refusesIpv4AddressesInsideIpv6(String address, String kind) {
        byte[] raw = io.netty.util.NetUtil.createByteArrayFromIpAddressString(address);

        assertThat(raw).hasSize(16);
        assertThat(guard.refusal(raw)).startsWith(kind);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "93.184.216.34", "203.0.113.10", "172.32.0.1", "172.15.255.255", "100.63.255.255", "100.128.0.1",
            "11.0.0.1", "223.255.255.255", "2606:4700::1111", "2001:db8::1", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8"})
    void letsPublicAddressesThrough(String address) throws Exception {
        assertThat(guard.refusal(InetAddress.getByName(address))).isNull();
    }

    @Test
    void allowPrivateLetsListedRangesThroughAndNothingElse() throws Exception {
        AddressGuard farm = new AddressGuard(List.of("127.0.0.0/8", "10.1.0.0/16", "fd00::/8", "192.168.5.5"));

        assertThat(farm.refusal(InetAddress.getByName("127.0.0.2"))).isNull();
        assertThat(farm.refusal(InetAddress.getByName("::ffff:127.0.0.1"))).isNull();
        assertThat(farm.refusal(InetAddress.getByName("10.1.200.3"))).isNull();
        assertThat(farm.refusal(InetAddress.getByName("fd12::1"))).isNull();
        assertThat(farm.refusal(InetAddress.getByName("192.168.5.5"))).isNull();
        assertThat(farm.refusal(InetAddress.getByName("192.168.5.6"))).isEqualTo("private");
        assertThat(farm.refusal(InetAddress.getByName("10.2.0.1"))).isEqualTo("private");
        assertThat(farm.refusal(InetAddress.getByName("::1"))).isEqualTo("loopback");
        assertThat(farm.refusal(InetAddress.getByName("169.254.169.254"))).isEqualTo("link-local");
    }

    @Test
    void cidrRangesMatchOnThePrefixOnly() throws Exception {
        CidrRange range = CidrRange.parse("172.16.0.0/12");

        assertThat(range.contains(InetAddress.getByName("172.16.0.0"))).isTrue();
        assertThat(range.contains(InetAddress.getByName("172.31.255.255"))).isTrue();
        assertThat(range.contains(InetAddress.getByName("172.32.0.0"))).isFalse();
        assertThat(range.contains(InetAddress.getByName("::ffff:ac10:1"))).isTrue();
        assertThat(CidrRange.parse("0.0.0.0/0").contains(InetAddress.getByName("8.8.8.8"))).isTrue();
        assertThat(CidrRange.parse("10.9.8.7/8").contains(InetAddress.getByName("10.0.0.1"))).isTrue();
        assertThat(CidrRange.parse("[fe80::]/10").contains(InetAddress.getByName("febf::1"))).isTrue();
        assertThat(CidrRange.parse("fe80::/10").contains(InetAddress.getByName("fec0::1"))).isFalse();
        assertThat(CidrRange.parse("::1").prefixLength()).isEqualTo(128);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0/8", "256.0.0.0/8", "localhost/32",
            "intranet.example/24", "", "10.0.0.0/0x8", "fe80::1%eth0/64"})
    void refusesInvalidCidrRangesWithAClearMessage(String text) {
        assertThatThrownBy(() -> new AddressGuard(List.of(text)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("FetchLimits.allowPrivate: '" + text + "' is not a CIDR range");
    }
}
