package dev.tributary.api.bench;

import dev.tributary.api.testing.Prosody;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
 * The push benchmark's XMPP readers in a JVM of their own: {@code main(port, node, sessions)} signs
 * the sessions in, subscribes each to the node, prints {@code ready}, then one line per item heard,
 * {@code r<TAB>session<TAB>System.nanoTime()<TAB>payload}, until its standard input closes.
 */
final class XmppReceivers {

    private XmppReceivers() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String node = args[1];
        int count = Integer.parseInt(args[2]);
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        List<XMPPTCPConnection> sessions = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                sessions.add(session(port, node, i, out));
            }
            synchronized (out) {
                out.println("ready");
                out.flush();
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (in.readLine() != null) {
                // Until the parent closes our input.
            }
        } catch (Exception e) {
            synchronized (out) {
                out.println("error\t" + e.toString().replace('\n', ' ').replace('\t', ' '));
                out.flush();
            }
        } finally {
            sessions.forEach(XMPPTCPConnection::instantShutdown);
        }
        System.exit(0);
    }

    private static XMPPTCPConnection session(int port, String node, int index, PrintStream out) throws Exception {
        XMPPTCPConnection session = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(Prosody.DOMAIN).setHost("127.0.0.1").setPort(port)
                .setUsernameAndPassword(XmppReceipts.USER, XmppReceipts.PASSWORD).setResource("r" + index)
                .setSecurityMode(SecurityMode.disabled).setConnectTimeout(60_000).build());
        session.setUseStreamManagement(false);
        session.setReplyTimeout(60_000);
        session.addAsyncStanzaListener(stanza -> heard(index, (Message) stanza, System.nanoTime(), out), StanzaTypeFilter.MESSAGE);
        session.connect().login();
        PubSubManager pubsub = PubSubManager.getInstanceFor(session, JidCreate.bareFrom(Prosody.PUBSUB));
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (true) {
            try {
                pubsub.getLeafNode(node).subscribe(session.getUser());
                return session;
            } catch (XMPPException.XMPPErrorException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                dev.tributary.pubsub.bench.Bench.park(100); // the author's node is made by the publisher, a moment after the post
            }
        }
    }

    private static void heard(int index, Message message, long at, PrintStream out) {
        EventElement event = EventElement.from(message);
        if (event != null && event.getEvent() instanceof ItemsExtension items) {
            for (NamedElement item : items.getItems()) {
                if (item instanceof PayloadItem<?> payload && payload.getPayload() != null) {
                    String text = payload.getPayload().toXML().toString().replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
                    synchronized (out) {
                        out.println("r\t" + index + "\t" + at + "\t" + text);
                        out.flush();
                    }
                }
            }
        }
    }
}
