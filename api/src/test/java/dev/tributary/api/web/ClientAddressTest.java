package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientAddressTest {

    @Test
    void anIpv4AddressIsItself() {
        assertThat(ClientAddress.of("203.0.113.9")).isEqualTo("203.0.113.9");
    }

    @Test
    void everyAddressOfAnIpv6Slash64IsOneClient() {
        String one = ClientAddress.of("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
        String another = ClientAddress.of("2001:db8:1:2::1");

        assertThat(one).isEqualTo(another).endsWith("/64");
        assertThat(ClientAddress.of("2001:db8:1:3::1")).isNotEqualTo(one);
    }

    @Test
    void somethingThatIsNoAddressIsCountedAsGiven() {
        assertThat(ClientAddress.of("not an address")).isEqualTo("not an address");
        assertThat(ClientAddress.of("zz:not:a:literal")).isEqualTo("zz:not:a:literal");
        assertThat(ClientAddress.of("12345::1::2")).isEqualTo("12345::1::2");
        assertThat(ClientAddress.of("")).isEqualTo("");
    }
}
