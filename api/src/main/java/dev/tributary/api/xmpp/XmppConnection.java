package dev.tributary.api.xmpp;

import dev.tributary.pubsub.XmppSettings;
import java.io.IOException;
import java.util.Objects;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.ping.PingManager;
import org.jivesoftware.smackx.pubsub.PubSubManager;
import org.jspecify.annotations.Nullable;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;

/**
 * Tributary's own session on the XMPP server, as a client (Smack): opened when first needed,
 * dropped on any failure and opened again by the next use. Used by the publisher's one thread.
 */
final class XmppConnection implements AutoCloseable {

    private static final long MAX_REPLY_TIMEOUT_MS = 30_000;

    private final XmppSettings settings;
    private final String resource;
    private final long replyTimeoutMs;
    private @Nullable XMPPTCPConnection connection;
    private @Nullable PubSubManager pubsub;

    XmppConnection(XmppSettings settings, String resource) {
        this.settings = settings;
        this.resource = resource;
        // A sixth of the publisher's lease: a row's few round trips end before the lease can pass to another node.
        this.replyTimeoutMs = Math.max(1_000, Math.min(MAX_REPLY_TIMEOUT_MS, settings.leaseTtl().toMillis() / 6));
    }

    /** The open session, signed in; opens one if there is none. */
    XMPPTCPConnection open() throws IOException, SmackException, XMPPException, InterruptedException {
        if (connection != null && connection.isAuthenticated()) {
            return connection;
        }
        drop();
        EntityBareJid self = JidCreate.entityBareFrom(Objects.requireNonNull(settings.address()));
        XMPPTCPConnectionConfiguration config = XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(Objects.requireNonNull(settings.domain()))
                .setHost(settings.server())
                .setPort(settings.port())
                .setUsernameAndPassword(self.getLocalpart().toString(), settings.secret())
                .setResource(resource)
                .setSecurityMode(settings.requireTls() ? SecurityMode.required : SecurityMode.disabled)
                .setSendPresence(false)
                .setConnectTimeout((int) replyTimeoutMs)
                .build();
        XMPPTCPConnection opened = new XMPPTCPConnection(config);
        opened.setReplyTimeout(replyTimeoutMs);
        opened.setUseStreamManagement(false);
        try {
            opened.connect().login();
        } catch (IOException | SmackException | XMPPException | InterruptedException | RuntimeException e) {
            opened.disconnect();
            throw e;
        }
        connection = opened;
        pubsub = PubSubManager.getInstanceFor(opened, JidCreate.bareFrom(Objects.requireNonNull(settings.pubsubService())));
        return opened;
    }

    /** The publish-subscribe service of the open session. */
    PubSubManager pubsub() throws IOException, SmackException, XMPPException, InterruptedException {
        open();
        return Objects.requireNonNull(pubsub);
    }

    /**
     * A round trip to the server: it answers only after it handled every stanza sent before on
     * this stream, so messages sent before are the server's once this returns.
     */
    void confirm() throws IOException, SmackException, XMPPException, InterruptedException {
        XMPPTCPConnection open = open();
        if (!PingManager.getInstanceFor(open).pingMyServer(false)) {
            throw SmackException.NoResponseException.newWith(open, "ping");
        }
    }

    boolean connected() {
        XMPPTCPConnection current = connection;
        return current != null && current.isAuthenticated();
    }

    /** Drops the session (after a failure): the next use opens a new one. */
    void drop() {
        XMPPTCPConnection current = connection;
        connection = null;
        pubsub = null;
        if (current != null) {
            current.instantShutdown();
        }
    }

    @Override
    public void close() {
        XMPPTCPConnection current = connection;
        connection = null;
        pubsub = null;
        if (current != null) {
            current.disconnect();
        }
    }
}
