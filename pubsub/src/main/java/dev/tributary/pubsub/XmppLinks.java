package dev.tributary.pubsub;

import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * People's linked XMPP addresses ({@code xmpp_links}): linking sends a code from Tributary's
 * address (through the outbox), confirming it back proves the address, and only a proved
 * address receives anything. An address proved by one account cannot be proved by another.
 * Unlinking drops what was still waiting for the address, in the same transaction.
 */
@Service
public class XmppLinks {

    /** Characters of a code: no 0/O, 1/I/L, which people misread when they type it back. */
    private static final char[] CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789".toCharArray();
    private static final int CODE_LENGTH = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private static final RowMapper<XmppLink> LINK = (rs, n) -> new XmppLink(rs.getLong("id"), rs.getString("address"),
            rs.getTimestamp("verified_at") == null ? null : rs.getTimestamp("verified_at").toInstant(), rs.getString("deliver"),
            rs.getObject("folder_id", Long.class), rs.getTimestamp("created_at").toInstant());

    private final JdbcClient jdbc;
    private final Transactions tx;
    private final IdGenerator ids;
    private final XmppOutbox outbox;
    private final XmppSettings settings;
    private final Groups groups;
    private final Folders folders;

    XmppLinks(JdbcClient jdbc, Transactions tx, IdGenerator ids, XmppOutbox outbox, XmppSettings settings, Groups groups,
            Folders folders) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.ids = ids;
        this.outbox = outbox;
        this.settings = settings;
        this.groups = groups;
        this.folders = folders;
    }

    /** What confirming a code came to. */
    public enum Confirmation {
        /** The address is proved now (or was already). */
        PROVED,
        /** Not the code sent; the code stays good for fewer attempts. */
        WRONG,
        /** No code is good any more (expired, or too many wrong attempts): link again for a new one. */
        SPENT
    }

    /** The person's link, if any. */
    public Optional<XmppLink> find(long userId) {
        return jdbc.sql("SELECT * FROM xmpp_links WHERE user_id = ?").param(userId).query(LINK).optional();
    }

    /**
     * Links (or links again) an address: unproved, receiving the home timeline once proved, and
     * a new code on its way to it. A link the person had is replaced.
     *
     * @param address a bare address, already validated and normalised
     * @throws XmppAddressTakenException if another account proved this address
     */
    public XmppLink link(long userId, String address) {
        return tx.write("link XMPP address of " + userId, () -> {
            Long holder = jdbc.sql("SELECT user_id FROM xmpp_links WHERE verified_address = ?").param(address)
                    .query(Long.class).optional().orElse(null);
            if (holder != null && holder != userId) {
                throw new XmppAddressTakenException();
            }
            boolean wasProved = find(userId).map(XmppLink::verified).orElse(false);
            jdbc.sql("DELETE FROM xmpp_links WHERE user_id = ?").param(userId).update();
            jdbc.sql("DELETE FROM xmpp_outbox WHERE user_id = ? AND kind IN ('notify', 'code')").param(userId).update();
            long id = ids.next();
            String code = newCode();
            Instant now = Instant.now();
            jdbc.sql("""
                    INSERT INTO xmpp_links (user_id, id, address, code_hash, code_expires_at, failed_attempts, deliver, created_at)
                    VALUES (?, ?, ?, ?, ?, 0, 'home', ?)
                    """).params(userId, id, address, hash(code), Timestamp.from(now.plus(settings.codeTtl())), Timestamp.from(now))
                    .update();
            outbox.code(userId, id, code);
            if (wasProved) {
                membershipsChanged(userId);
            }
            return find(userId).orElseThrow();
        });
    }

    /**
     * Checks a code sent to the linked address. A wrong one counts against the code, which is
     * spent after {@code tributary.xmpp.code-attempts} of them (or once it expired).
     *
     * @throws XmppLinkNotFoundException if nothing is linked
     * @throws XmppAddressTakenException if another account proved the address meanwhile
     */
    public Confirmation confirm(long userId, String code) {
        return tx.write("confirm XMPP address of " + userId, () -> {
            record Pending(long id, String address, boolean verified, byte @Nullable [] codeHash, @Nullable Timestamp expires,
                    int failed) {
            }
            Pending link = jdbc.sql("SELECT * FROM xmpp_links WHERE user_id = ? FOR UPDATE").param(userId)
                    .query((rs, n) -> new Pending(rs.getLong("id"), rs.getString("address"), rs.getTimestamp("verified_at") != null,
                            rs.getBytes("code_hash"), rs.getTimestamp("code_expires_at"), rs.getInt("failed_attempts")))
                    .optional().orElseThrow(XmppLinkNotFoundException::new);
            if (link.verified()) {
                return Confirmation.PROVED;
            }
            if (link.codeHash() == null || link.expires() == null || link.expires().toInstant().isBefore(Instant.now())
                    || link.failed() >= settings.codeAttempts()) {
                return Confirmation.SPENT;
            }
            if (!MessageDigest.isEqual(link.codeHash(), hash(code.strip().toUpperCase(java.util.Locale.ROOT)))) {
                jdbc.sql("UPDATE xmpp_links SET failed_attempts = failed_attempts + 1 WHERE user_id = ?").param(userId).update();
                return link.failed() + 1 >= settings.codeAttempts() ? Confirmation.SPENT : Confirmation.WRONG;
            }
            Long holder = jdbc.sql("SELECT user_id FROM xmpp_links WHERE verified_address = ?").param(link.address())
                    .query(Long.class).optional().orElse(null);
            if (holder != null && holder != userId) {
                throw new XmppAddressTakenException();
            }
            jdbc.sql("""
                    UPDATE xmpp_links SET verified_address = address, verified_at = ?, code_hash = NULL, code_expires_at = NULL
                    WHERE user_id = ?
                    """).params(Timestamp.from(Instant.now()), userId).update();
            membershipsChanged(userId);
            return Confirmation.PROVED;
        });
    }

    /**
     * Chooses what the address receives: {@code home}, {@code folder} (with {@code folderId}) or {@code starred}.
     *
     * @throws XmppLinkNotFoundException if nothing is linked
     * @throws FolderNotFoundException if the folder is not theirs
     */
    public XmppLink choose(long userId, String deliver, @Nullable Long folderId) {
        if (!deliver.equals("home") && !deliver.equals("folder") && !deliver.equals("starred")) {
            throw new IllegalArgumentException("deliver is home, folder or starred, not " + deliver);
        }
        if (deliver.equals("folder")) {
            if (folderId == null || folders.find(userId, folderId).isEmpty()) {
                throw new FolderNotFoundException(folderId == null ? 0 : folderId);
            }
        }
        Long folder = deliver.equals("folder") ? folderId : null;
        return tx.write("choose XMPP push of " + userId, () -> {
            if (jdbc.sql("UPDATE xmpp_links SET deliver = ?, folder_id = ? WHERE user_id = ?").params(deliver, folder, userId)
                    .update() == 0) {
                throw new XmppLinkNotFoundException();
            }
            return find(userId).orElseThrow();
        });
    }

    /**
     * Unlinks the address: nothing more reaches it from the moment this commits, what was still
     * waiting for it is dropped, and it leaves the whitelists of the person's closed groups.
     * False if nothing was linked.
     */
    public boolean unlink(long userId) {
        return tx.write("unlink XMPP address of " + userId, () -> {
            boolean wasProved = find(userId).map(XmppLink::verified).orElse(false);
            int removed = jdbc.sql("DELETE FROM xmpp_links WHERE user_id = ?").param(userId).update();
            jdbc.sql("DELETE FROM xmpp_outbox WHERE user_id = ? AND kind IN ('notify', 'code')").param(userId).update();
            if (wasProved) {
                membershipsChanged(userId);
            }
            return removed > 0;
        });
    }

    private void membershipsChanged(long userId) {
        for (long groupId : groups.groupsOf(userId)) {
            groups.find(groupId).ifPresent(group -> outbox.membersChanged(group.body().sourceId()));
        }
    }

    private static String newCode() {
        char[] code = new char[CODE_LENGTH];
        for (int i = 0; i < code.length; i++) {
            code[i] = CODE_ALPHABET[RANDOM.nextInt(CODE_ALPHABET.length)];
        }
        return new String(code);
    }

    private static byte[] hash(String code) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(code.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
