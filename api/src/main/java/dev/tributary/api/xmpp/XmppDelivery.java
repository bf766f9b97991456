package dev.tributary.api.xmpp;

import dev.tributary.api.export.AtomEntries;
import dev.tributary.api.web.Ids;
import dev.tributary.crawler.PublicUrlSettings;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.XmppOutbox;
import dev.tributary.pubsub.XmppSettings;
import dev.tributary.pubsub.XmppTask;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jivesoftware.smack.SmackException;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.IQ;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.packet.StandardExtensionElement;
import org.jivesoftware.smack.packet.StanzaError;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.pubsub.AccessModel;
import org.jivesoftware.smackx.pubsub.Affiliation;
import org.jivesoftware.smackx.pubsub.EventElement;
import org.jivesoftware.smackx.pubsub.EventElementType;
import org.jivesoftware.smackx.pubsub.ItemsExtension;
import org.jivesoftware.smackx.pubsub.LeafNode;
import org.jivesoftware.smackx.pubsub.Node;
import org.jivesoftware.smackx.pubsub.NotificationType;
import org.jivesoftware.smackx.pubsub.PayloadItem;
import org.jivesoftware.smackx.pubsub.NodeExtension;
import org.jivesoftware.smackx.pubsub.PubSubElementType;
import org.jivesoftware.smackx.pubsub.PubSubManager;
import org.jivesoftware.smackx.pubsub.packet.PubSub;
import org.jivesoftware.smackx.pubsub.packet.PubSubNamespace;
import org.jivesoftware.smackx.pubsub.SimplePayload;
import org.jivesoftware.smackx.pubsub.Subscription;
import org.jivesoftware.smackx.pubsub.SubscriptionsExtension;
import org.jivesoftware.smackx.pubsub.form.FillableConfigureForm;
import org.jxmpp.jid.BareJid;
import org.jxmpp.jid.Jid;
import org.jxmpp.jid.impl.JidCreate;
import org.springframework.stereotype.Component;

/**
 * What one outbox row does on the XMPP server: a publish (same item id on republish) or a
 * retraction on the item's public node, an event notification or a code to a linked address,
 * a closed group's whitelist set to its members. Each either completes (the server answered,
 * or there is nothing left to do: the item, link or group is gone) or throws.
 */
@Component
class XmppDelivery {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(XmppDelivery.class);

    /** Items a public node keeps (what a new subscriber can fetch). */
    private static final int NODE_MAX_ITEMS = 100;

    private final XmppSettings settings;
    private final XmppOutbox outbox;
    private final Items items;
    private final Sources sources;
    private final Groups groups;
    private final AtomEntries entries;
    private final PublicUrlSettings publicUrl;

    XmppDelivery(XmppSettings settings, XmppOutbox outbox, Items items, Sources sources, Groups groups, AtomEntries entries,
            PublicUrlSettings publicUrl) {
        this.settings = settings;
        this.outbox = outbox;
        this.items = items;
        this.sources = sources;
        this.groups = groups;
        this.entries = entries;
        this.publicUrl = publicUrl;
    }

    /** Whether the row sent a message, which the server has only once a later round trip came back. */
    boolean send(XmppConnection xmpp, XmppTask task) throws IOException, SmackException, XMPPException, InterruptedException {
        return switch (task.kind()) {
            case PUBLISH -> {
                publish(xmpp, task);
                yield false;
            }
            case RETRACT -> {
                retract(xmpp, task);
                yield false;
            }
            case MEMBERS -> {
                members(xmpp, task);
                yield false;
            }
            case NOTIFY -> notify(xmpp, task);
            case CODE -> code(xmpp, task);
        };
    }

    private void publish(XmppConnection xmpp, XmppTask task) throws IOException, SmackException, XMPPException, InterruptedException {
        Optional<Stored<Item>> item = items.find(task.itemId());
        Optional<Stored<Source>> source = sources.find(task.sourceId());
        if (item.isEmpty() || item.get().body().deleted() || source.isEmpty()) {
            return; // tombstoned since: its retraction follows
        }
        String node = PublicNodes.of(task.sourceId(), source.get().body());
        PayloadItem<SimplePayload> payload = new PayloadItem<>(Ids.format(task.itemId()),
                new SimplePayload(entries.entry(item.get(), site())));
        LeafNode leaf = node(xmpp.pubsub(), node, source.get().body());
        if (task.inDoubt() && alreadyPublished(leaf, payload)) {
            // Sent before, and the server took it though its answer never came back: publishing it again would
            // notify every subscriber a second time (a republish of an item id is news to XEP-0060).
            return;
        }
        try {
            leaf.publish(payload);
        } catch (XMPPException.XMPPErrorException e) {
            if (!notFound(e)) {
                throw e;
            }
            // The node went (the server's data was reset): made again, and published to once more.
            create(xmpp.pubsub(), node, source.get().body()).publish(payload);
        }
    }

    /** Whether the node holds this very item already: the same id with the same entry. */
    private static boolean alreadyPublished(LeafNode leaf, PayloadItem<SimplePayload> payload)
            throws SmackException, XMPPException, InterruptedException {
        List<org.jivesoftware.smackx.pubsub.Item> kept;
        try {
            kept = leaf.getItems(List.of(payload.getId()));
        } catch (XMPPException.XMPPErrorException e) {
            if (notFound(e)) {
                return false;
            }
            throw e;
        }
        String wanted = payload.getPayload().toXML().toString();
        return kept.stream().anyMatch(item -> payload.getId().equals(item.getId()) && item instanceof PayloadItem<?> held
                && held.getPayload() != null && SameXml.same(held.getPayload().toXML().toString(), wanted));
    }

    private void retract(XmppConnection xmpp, XmppTask task) throws IOException, SmackException, XMPPException, InterruptedException {
        Optional<Stored<Source>> source = sources.find(task.sourceId());
        if (source.isEmpty()) {
            return;
        }
        try {
            // notify="true", which LeafNode#deleteItem leaves out (and Smack's retract-with-notify element drops
            // its items): subscribers are told the item is gone.
            PubSub retract = new PubSub(JidCreate.bareFrom(Objects.requireNonNull(settings.pubsubService())), IQ.Type.set,
                    PubSubNamespace.basic);
            retract.addExtension(new Retraction(PublicNodes.of(task.sourceId(), source.get().body()), Ids.format(task.itemId())));
            xmpp.open().sendIqRequestAndWaitForResponse(retract);
        } catch (XMPPException.XMPPErrorException e) {
            if (!notFound(e)) {
                throw e;
            }
        }
    }

    /** A closed group's node admits exactly its members' proved addresses; an open group's admits anyone. */
    private void members(XmppConnection xmpp, XmppTask task) throws IOException, SmackException, XMPPException, InterruptedException {
        Optional<Stored<Source>> source = sources.find(task.sourceId());
        if (source.isEmpty()) {
            return;
        }
        long groupId = Objects.requireNonNull(source.get().body().ownerId());
        Optional<Stored<Group>> group = groups.find(groupId);
        if (group.isEmpty()) {
            return;
        }
        PubSubManager pubsub = xmpp.pubsub();
        String nodeId = PublicNodes.of(task.sourceId(), source.get().body());
        LeafNode node = node(pubsub, nodeId, source.get().body());
        boolean open = group.get().body().open();
        AccessModel wanted = open ? AccessModel.open : AccessModel.whitelist;
        if (node.getNodeConfiguration().getAccessModel() != wanted) {
            FillableConfigureForm form = node.getNodeConfiguration().getFillableForm();
            form.setAccessModel(wanted);
            node.sendConfigurationForm(form);
        }
        Set<BareJid> members = new HashSet<>();
        if (!open) {
            for (String address : outbox.memberAddresses(groupId)) {
                members.add(JidCreate.bareFrom(address));
            }
        }
        BareJid self = JidCreate.bareFrom(Objects.requireNonNull(settings.address()));
        List<Affiliation> changes = new ArrayList<>();
        Set<BareJid> affiliated = new HashSet<>();
        for (StandardExtensionElement affiliation : ownerList(xmpp, nodeId, PubSubElementType.AFFILIATIONS_OWNER, "affiliation")) {
            BareJid jid = JidCreate.bareFrom(affiliation.getAttributeValue("jid"));
            if (jid.equals(self) || !"member".equals(affiliation.getAttributeValue("affiliation"))) {
                continue;
            }
            affiliated.add(jid);
            if (!members.contains(jid)) {
                changes.add(new Affiliation(jid, Affiliation.Type.none, Affiliation.AffiliationNamespace.owner));
            }
        }
        for (BareJid member : members) {
            if (!affiliated.contains(member)) {
                changes.add(new Affiliation(member, Affiliation.Type.member, Affiliation.AffiliationNamespace.owner));
            }
        }
        if (!open) {
            // Whoever is no longer a member loses their subscription first, then their affiliation. In this order
            // because Prosody 0.12, taking the affiliation of someone still subscribed to a whitelist node, tries to
            // subscribe them again and answers forbidden (util/pubsub.lua set_affiliation), the subscription kept.
            List<String> ended = new ArrayList<>();
            for (Subscription subscription : subscriptions(xmpp, nodeId)) {
                Jid jid = subscription.getJid();
                if (!members.contains(jid.asBareJid()) && !jid.asBareJid().equals(self)) {
                    ended.add(jid.toString());
                }
            }
            if (!ended.isEmpty()) {
                PubSub end = new PubSub(JidCreate.bareFrom(Objects.requireNonNull(settings.pubsubService())), IQ.Type.set,
                        PubSubNamespace.owner);
                end.addExtension(new EndedSubscriptions(nodeId, ended));
                xmpp.open().sendIqRequestAndWaitForResponse(end);
            }
        }
        List<Affiliation> added = changes.stream().filter(change -> change.getAffiliation() == Affiliation.Type.member).toList();
        if (!added.isEmpty()) {
            node.modifyAffiliationAsOwner(added);
        }
        List<Affiliation> removed = changes.stream().filter(change -> change.getAffiliation() != Affiliation.Type.member).toList();
        if (!removed.isEmpty()) {
            // "none" on a whitelist node is an outcast: they can neither subscribe again nor read the items.
            node.modifyAffiliationAsOwner(removed);
        }
    }

    /** A node's subscriptions as its owner sees them, whichever way Smack parsed the answer. */
    private List<Subscription> subscriptions(XmppConnection xmpp, String nodeId)
            throws IOException, SmackException, XMPPException, InterruptedException {
        PubSub request = PubSub.createPubsubPacket(JidCreate.bareFrom(Objects.requireNonNull(settings.pubsubService())),
                IQ.Type.get, new NodeExtension(PubSubElementType.SUBSCRIPTIONS_OWNER, nodeId));
        PubSub reply = xmpp.open().sendIqRequestAndWaitForResponse(request);
        List<Subscription> found = new ArrayList<>();
        for (ExtensionElement element : reply.getExtensions()) {
            if (element instanceof SubscriptionsExtension parsed) {
                found.addAll(parsed.getSubscriptions());
            } else if (element instanceof StandardExtensionElement standard) {
                for (StandardExtensionElement child : standard.getElements("subscription")) {
                    found.add(new Subscription(JidCreate.from(child.getAttributeValue("jid")), nodeId,
                            child.getAttributeValue("subid"), Subscription.State.subscribed));
                }
            }
        }
        return found;
    }

    /**
     * A node's affiliations or subscriptions as its owner sees them, read from the raw answer:
     * Smack 4.4 has no parser for the owner namespace's lists (its own getters fail to cast them).
     */
    private List<StandardExtensionElement> ownerList(XmppConnection xmpp, String nodeId, PubSubElementType list, String child)
            throws IOException, SmackException, XMPPException, InterruptedException {
        PubSub request = PubSub.createPubsubPacket(JidCreate.bareFrom(Objects.requireNonNull(settings.pubsubService())),
                IQ.Type.get, new NodeExtension(list, nodeId));
        PubSub reply = xmpp.open().sendIqRequestAndWaitForResponse(request);
        List<StandardExtensionElement> found = new ArrayList<>();
        for (ExtensionElement element : reply.getExtensions()) {
            if (element instanceof StandardExtensionElement standard) {
                found.addAll(standard.getElements(child));
            }
        }
        return found;
    }

    private boolean notify(XmppConnection xmpp, XmppTask task) throws IOException, SmackException, XMPPException, InterruptedException {
        String address = outbox.addressFor(task);
        Optional<Stored<Item>> item = items.find(task.itemId());
        if (address == null || item.isEmpty() || item.get().body().deleted()) {
            return false; // unlinked, linked anew or deleted since: nothing to send
        }
        PayloadItem<SimplePayload> payload = new PayloadItem<>(org.jivesoftware.smackx.pubsub.Item.ItemNamespace.event,
                Ids.format(task.itemId()), PublicNodes.HOME, new SimplePayload(entries.entry(item.get(), site())));
        XMPPTCPConnection connection = xmpp.open();
        // The row's own id: sent again after a session broke before the server confirmed it, it is the same
        // message, which the person's client (and the server's archive) can tell from a new one.
        Message message = org.jivesoftware.smack.packet.StanzaBuilder.buildMessage("tributary-" + Ids.format(task.id()))
                .to(JidCreate.entityBareFrom(address))
                .ofType(Message.Type.normal) // kept offline by the server while the person is away, unlike headline
                .setBody(body(item.get()))
                .addExtension(new EventElement(EventElementType.items,
                        new ItemsExtension(ItemsExtension.ItemsElementType.items, PublicNodes.HOME, List.of(payload))))
                .build();
        connection.sendStanza(message);
        return true;
    }

    private boolean code(XmppConnection xmpp, XmppTask task) throws IOException, SmackException, XMPPException, InterruptedException {
        String address = outbox.addressFor(task);
        if (address == null || task.payload() == null) {
            return false;
        }
        XMPPTCPConnection connection = xmpp.open();
        connection.sendStanza(org.jivesoftware.smack.packet.StanzaBuilder.buildMessage("tributary-" + Ids.format(task.id()))
                .to(JidCreate.entityBareFrom(address))
                .ofType(Message.Type.chat)
                .setBody("Your Tributary verification code is " + task.payload()
                        + " . Enter it in Tributary's settings to receive your feed here. If you did not ask for it, ignore this message.")
                .build());
        return true;
    }

    private static String body(Stored<Item> item) {
        Item body = item.body();
        String title = body.title() != null && !body.title().isBlank() ? body.title() : "New entry";
        return body.url() != null && !body.url().isBlank() ? title + "\n" + body.url() : title;
    }

    private LeafNode node(PubSubManager pubsub, String nodeId, Source source)
            throws IOException, SmackException, XMPPException, InterruptedException {
        try {
            return pubsub.getLeafNode(nodeId);
        } catch (XMPPException.XMPPErrorException e) {
            if (!notFound(e)) {
                throw e;
            }
            return create(pubsub, nodeId, source);
        }
    }

    private LeafNode create(PubSubManager pubsub, String nodeId, Source source)
            throws IOException, SmackException, XMPPException, InterruptedException {
        FillableConfigureForm form = pubsub.getDefaultConfiguration().getFillableForm();
        boolean closedGroup = source.kind() == dev.tributary.pubsub.SourceKind.GROUP
                && groups.find(Objects.requireNonNull(source.ownerId())).map(group -> !group.body().open()).orElse(true);
        form.setAccessModel(closedGroup ? AccessModel.whitelist : AccessModel.open);
        form.setPersistentItems(true);
        form.setMaxItems(NODE_MAX_ITEMS);
        // Normal, not headline: the server keeps a notification for a subscriber who is away.
        form.setNotificationType(NotificationType.normal);
        form.setNotifyRetract(true);
        form.setTitle(source.title() != null ? source.title() : nodeId);
        try {
            Node created = pubsub.createNode(nodeId, form);
            return (LeafNode) created;
        } catch (XMPPException.XMPPErrorException e) {
            if (e.getStanzaError().getCondition() != StanzaError.Condition.conflict) {
                throw e;
            }
            return pubsub.getLeafNode(nodeId);
        }
    }

    private static boolean notFound(XMPPException.XMPPErrorException e) {
        return e.getStanzaError().getCondition() == StanzaError.Condition.item_not_found;
    }

    private String site() {
        java.net.URI url = publicUrl.publicUrl();
        if (url == null) {
            return "http://localhost/";
        }
        String base = url.toString();
        return base.endsWith("/") ? base : base + "/";
    }
}
