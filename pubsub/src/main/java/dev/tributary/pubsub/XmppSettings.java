package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Push over XMPP publish-subscribe ({@code tributary.xmpp.*}): off unless {@code server} is set.
 * Tributary is a client of an existing XMPP server (Prosody, ejabberd), signed in as {@code address}.
 *
 * @param server host name or address of the XMPP server; unset, XMPP push is off and nothing is written to its outbox
 * @param port its client-to-server port
 * @param domain the XMPP domain Tributary's address belongs to (the server's virtual host)
 * @param address Tributary's own bare address, {@code localpart@domain}; the account must exist on the server
 * @param secret the password of that account
 * @param pubsubService the XEP-0060 service holding the public nodes, e.g. {@code pubsub.example.org}
 * @param requireTls whether the connection must be TLS (off only for a server on loopback, as in tests)
 * @param maxBacklog outbox rows at most: past it new public-node publishes and notifications are
 *        dropped (and counted) rather than letting an absent server grow the table without end
 * @param batch outbox rows published per round trip
 * @param leaseTtl how long the publishing node holds its lease without renewing it
 * @param pollInterval how often an idle publisher looks for rows written on other nodes (rows committed on its
 *        own node wake it at once)
 * @param maxBackoff the longest wait between retries while the server is away
 * @param codeAttempts wrong verification codes accepted before a code is spent
 * @param codeTtl how long a verification code is good for
 */
@ConfigurationProperties("tributary.xmpp")
@Validated
public record XmppSettings(
        @Nullable @Size(max = 253) String server,
        @Min(1) @Max(65535) @DefaultValue("5222") int port,
        @Nullable @Size(max = 253) String domain,
        @Nullable @Size(max = 500) String address,
        @Nullable String secret,
        @Nullable @Size(max = 253) String pubsubService,
        @DefaultValue("true") boolean requireTls,
        @Min(1) @Max(100_000_000) @DefaultValue("100000") int maxBacklog,
        @Min(1) @Max(1000) @DefaultValue("50") int batch,
        @NotNull @DefaultValue("30s") Duration leaseTtl,
        @NotNull @DefaultValue("200ms") Duration pollInterval,
        @NotNull @DefaultValue("30s") Duration maxBackoff,
        @Min(1) @Max(100) @DefaultValue("5") int codeAttempts,
        @NotNull @DefaultValue("15m") Duration codeTtl) {

    public XmppSettings {
        if (server != null && !server.isBlank()
                && (domain == null || address == null || secret == null || pubsubService == null)) {
            throw new IllegalArgumentException(
                    "tributary.xmpp.server is set: tributary.xmpp.domain, address, secret and pubsub-service must be too");
        }
    }

    /** Whether XMPP push is on. */
    public boolean enabled() {
        return server != null && !server.isBlank();
    }

    /** The node role ({@code tributary.roles}) under which the outbox is published. */
    public static final String ROLE = FanoutSettings.ROLE;
}
