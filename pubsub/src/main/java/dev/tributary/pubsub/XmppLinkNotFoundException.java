package dev.tributary.pubsub;

/** The person has no linked XMPP address. */
public class XmppLinkNotFoundException extends PubsubException {

    public XmppLinkNotFoundException() {
        super("no XMPP address is linked");
    }
}
