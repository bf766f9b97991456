package dev.tributary.api.xmpp;

import org.jivesoftware.smack.packet.ExtensionElement;
import org.jivesoftware.smack.packet.XmlEnvironment;
import org.jivesoftware.smack.util.XmlStringBuilder;

/** XEP-0060's {@code <retract node='…' notify='true'><item id='…'/></retract>}, which Smack 4.4 cannot write whole. */
record Retraction(String node, String itemId) implements ExtensionElement {

    @Override
    public String getElementName() {
        return "retract";
    }

    @Override
    public String getNamespace() {
        return "http://jabber.org/protocol/pubsub";
    }

    @Override
    public CharSequence toXML(XmlEnvironment environment) {
        XmlStringBuilder xml = new XmlStringBuilder(this, environment);
        xml.attribute("node", node).attribute("notify", "true").rightAngleBracket();
        xml.halfOpenElement("item").attribute("id", itemId).closeEmptyElement();
        return xml.closeElement(this);
    }
}
