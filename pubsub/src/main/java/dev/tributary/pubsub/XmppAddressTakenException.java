package dev.tributary.pubsub;

/** The address is linked to (and proved by) another account: one address receives one account's push. */
public class XmppAddressTakenException extends PubsubException {

    public XmppAddressTakenException() {
        super("this XMPP address is linked to another account");
    }
}
