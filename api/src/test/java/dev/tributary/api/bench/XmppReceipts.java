package dev.tributary.api.bench;

import dev.tributary.api.testing.Prosody;
import java.util.ArrayList;
import java.util.List;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.NamedElement;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.pubsub.EventElement;
import org.jivesoftware.smackx.pubsub.ItemsExtension;
import org.jivesoftware.smackx.pubsub.PayloadItem;
import org.jivesoftware.smackx.pubsub.PubSubManager;
import org.jxmpp.jid.impl.JidCreate;

/**
 * XMPP receipts: {@code subscribers} Smack sessions on the benchmark's own Prosody (one account,
 * a resource each), each subscribed by its full address to the author's public node; a receipt
 * is the node's event notification whose Atom entry carries the round's marker.
 */
final class XmppReceipts extends PushReceipts {

    static final String USER = "bench";
    private static final String PASSWORD = "bench-secret";

    private final List<XMPPTCPConnection> sessions;

    private XmppReceipts(int subscribers) {
        super("xmpp", subscribers);
        this.sessions = new ArrayList<>(subscribers);
    }

    /** Signs {@code subscribers} sessions in and subscribes each to {@code node}, once the app made it. */
    static XmppReceipts subscribe(Prosody prosody, String node, int subscribers) throws Exception {
        prosody.register(USER, PASSWORD);
        XmppReceipts receipts = new XmppReceipts(subscribers);
        for (int i = 0; i < subscribers; i++) {
            int index = i;
            XMPPTCPConnection session = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                    .setXmppDomain(Prosody.DOMAIN).setHost("127.0.0.1").setPort(prosody.port())
                    .setUsernameAndPassword(USER, PASSWORD).setResource("r" + i)
                    .setSecurityMode(SecurityMode.disabled).setConnectTimeout(60_000).build());
            session.setUseStreamManagement(false);
            session.setReplyTimeout(60_000);
            session.addAsyncStanzaListener(stanza -> receipts.heard(index, (Message) stanza), StanzaTypeFilter.MESSAGE);
            session.connect().login();
            receipts.sessions.add(session);
            PubSubManager pubsub = PubSubManager.getInstanceFor(session, JidCreate.bareFrom(Prosody.PUBSUB));
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (true) {
                try {
                    pubsub.getLeafNode(node).subscribe(session.getUser());
                    break;
                } catch (XMPPException.XMPPErrorException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw notYet;
                    }
                    dev.tributary.pubsub.bench.Bench.park(100); // the author's node is made by the publisher, a moment after the post
                }
            }
        }
        return receipts;
    }

    private void heard(int index, Message message) {
        EventElement event = EventElement.from(message);
        if (event != null && event.getEvent() instanceof ItemsExtension items) {
            for (NamedElement item : items.getItems()) {
                if (item instanceof PayloadItem<?> payload && payload.getPayload() != null) {
                    received(index, payload.getPayload().toXML().toString());
                }
            }
        }
    }

    @Override
    public void close() {
        sessions.forEach(XMPPTCPConnection::instantShutdown);
    }
}
