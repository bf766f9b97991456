package dev.tributary.api.xmpp;

import java.util.List;
import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.util.XmlStringBuilder;

/**
 * XEP-0060's owner {@code <subscriptions node='…'><subscription jid='…' subscription='none'/></subscriptions>}.
 * Smack 4.4 writes each {@code <subscription/>} in the plain pubsub namespace inside the owner
 * element, and Prosody only reads children in their parent's namespace: it answered "ok" and
 * ended nothing. Written here whole, in one namespace.
 */
record EndedSubscriptions(String node, List<String> jids) implements ExtensionElement {

    static final String OWNER = "http://jabber.org/protocol/pubsub#owner";

    @Override
    public String getElementName() {
        return "subscriptions";
    }

    @Override
    public String getNamespace() {
        return OWNER;
    }

    @Override
    public CharSequence toXML(XmlEnvironment environment) {
        XmlStringBuilder xml = new XmlStringBuilder(this, environment);
        xml.attribute("node", node).rightAngleBracket();
        for (String jid : jids) {
            xml.halfOpenElement("subscription").attribute("jid", jid).attribute("subscription", "none").closeEmptyElement();
        }
        return xml.closeElement(this);
    }
}
