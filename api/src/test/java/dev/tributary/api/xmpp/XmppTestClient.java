package dev.tributary.api.xmpp;

import dev.tributary.api.testing.Prosody;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jivesoftware.smack.ConnectionConfiguration.SecurityMode;
import org.jivesoftware.smack.filter.StanzaTypeFilter;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.NamedElement;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smack.tcp.XMPPTCPConnectionConfiguration;
import org.jivesoftware.smackx.pubsub.EventElement;
import org.jivesoftware.smackx.pubsub.ItemsExtension;
import org.jivesoftware.smackx.pubsub.PayloadItem;
import org.jivesoftware.smackx.pubsub.PubSubManager;
import org.jivesoftware.smackx.pubsub.RetractItem;
import org.jxmpp.jid.impl.JidCreate;

/**
 * A person's XMPP client in a test (Smack, as any client library would): signs in to the test's
 * Prosody, subscribes to nodes, and records every pubsub event and chat message it receives, in
 * the order it received them.
 */
final class XmppTestClient implements AutoCloseable {

    /** One received event: {@code publish} or {@code retract} of an item on a node, with its payload. */
    record Event(String type, String node, String itemId, String payload) {
    }

    private final Prosody prosody;
    private final String user;
    private final String password;
    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final List<String> chats = new CopyOnWriteArrayList<>();
    private XMPPTCPConnection connection;
    private String resource = "test";

    private XmppTestClient(Prosody prosody, String user, String password) {
        this.prosody = prosody;
        this.user = user;
        this.password = password;
    }

    /** Makes the account and signs in. */
    static XmppTestClient signUp(Prosody prosody, String user) throws Exception {
        prosody.register(user, "pw-" + user);
        XmppTestClient client = new XmppTestClient(prosody, user, "pw-" + user);
        client.connect();
        return client;
    }

    /** Signs in to an existing account, with its own resource. */
    static XmppTestClient signIn(Prosody prosody, String user, String password, String resource) throws Exception {
        XmppTestClient client = new XmppTestClient(prosody, user, password);
        client.resource = resource;
        client.connect();
        return client;
    }

    String address() {
        return user + "@" + Prosody.DOMAIN;
    }

    /** Signs in (again): messages the server kept while it was away arrive now. */
    void connect() throws Exception {
        XMPPTCPConnection opened = new XMPPTCPConnection(XMPPTCPConnectionConfiguration.builder()
                .setXmppDomain(Prosody.DOMAIN).setHost("127.0.0.1").setPort(prosody.port())
                .setUsernameAndPassword(user, password).setResource(resource)
                .setSecurityMode(SecurityMode.disabled).setConnectTimeout(60_000).build());
        opened.setUseStreamManagement(false);
        opened.setReplyTimeout(60_000); // a busy test machine is slow to answer, not wrong
        opened.addSyncStanzaListener(stanza -> record((Message) stanza), StanzaTypeFilter.MESSAGE);
        opened.connect().login();
        connection = opened;
    }

    void disconnect() {
        if (connection != null) {
            connection.instantShutdown();
        }
    }

    private void record(Message message) {
        EventElement event = EventElement.from(message);
        if (event == null) {
            if (message.getBody() != null) {
                chats.add(message.getBody());
            }
            return;
        }
        if (event.getEvent() instanceof ItemsExtension items) {
            for (NamedElement item : items.getItems()) {
                if (item instanceof RetractItem retract) {
                    events.add(new Event("retract", items.getNode(), retract.getId(), ""));
                } else if (item instanceof PayloadItem<?> payload) {
                    events.add(new Event("publish", items.getNode(), payload.getId(), payload.getPayload().toXML().toString()));
                }
            }
        }
    }

    PubSubManager pubsub() throws Exception {
        return PubSubManager.getInstanceFor(connection, JidCreate.bareFrom(Prosody.PUBSUB));
    }

    /** Subscribes the bare address to a node (so the server keeps its notifications while the client is away). */
    void subscribe(String node) throws Exception {
        pubsub().getLeafNode(node).subscribe(address());
    }

    List<Event> events() {
        return new ArrayList<>(events);
    }

    List<Event> events(String type, String node) {
        return events.stream().filter(event -> event.type().equals(type) && event.node().equals(node)).toList();
    }

    List<String> ids(String type, String node) {
        return events(type, node).stream().map(Event::itemId).toList();
    }

    List<String> chats() {
        return new ArrayList<>(chats);
    }

    @Override
    public void close() {
        disconnect();
    }
}
