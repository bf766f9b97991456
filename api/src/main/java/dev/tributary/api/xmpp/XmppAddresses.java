package dev.tributary.api.xmpp;

import dev.tributary.api.web.ApiProblem;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.stringprep.XmppStringprepException;

/**
 * A person's address as linked: a bare {@code localpart@domain} (no resource: a push goes to
 * the person, not one of their clients), prepared as XMPP compares addresses (case-folded), at
 * most 500 characters. Anything else is a 400 naming the field.
 */
final class XmppAddresses {

    static final int MAX_LENGTH = 500;

    private XmppAddresses() {
    }

    static String normalise(String address) {
        String trimmed = address.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_LENGTH || trimmed.indexOf('/') >= 0
                || trimmed.chars().anyMatch(c -> Character.isWhitespace(c) || Character.isISOControl(c) || c == '<' || c == '>'
                        || c == '"' || c == '&' || c == '\'')
                || trimmed.indexOf('@') <= 0 || trimmed.indexOf('@') != trimmed.lastIndexOf('@')) {
            throw invalid();
        }
        EntityBareJid jid;
        try {
            jid = JidCreate.entityBareFrom(trimmed);
        } catch (XmppStringprepException | IllegalArgumentException e) {
            throw invalid();
        }
        String domain = jid.getDomain().toString();
        if (domain.isEmpty() || domain.startsWith(".") || domain.endsWith(".") || domain.contains("..") || !domain.contains(".") && !domain.equals("localhost")) {
            throw invalid();
        }
        String prepared = jid.toString();
        if (prepared.length() > MAX_LENGTH) {
            throw invalid();
        }
        return prepared;
    }

    private static ApiProblem invalid() {
        return ApiProblem.invalid("address", "must be a bare XMPP address, localpart@domain, without a resource");
    }
}
