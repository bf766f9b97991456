package dev.tributary.api.oauth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AES-256 key that encrypts secrets kept in the database (the token-signing keys' private
 * parts), read from {@value #ENVIRONMENT_VARIABLE} or the key file, never stored beside what it
 * protects. Sealed values are AES-GCM with a fresh 96-bit nonce, bound to a context string (the
 * row they belong to) so a sealed value copied to another row does not open there.
 */
final class KeyEncryptionKey {

    static final String ENVIRONMENT_VARIABLE = "TRIBUTARY_SECRET_KEY";
    private static final String VERSION = "v1";
    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger log = LoggerFactory.getLogger(KeyEncryptionKey.class);

    /** A sealed value that this key does not open: another key sealed it, or it was altered. */
    static final class WrongKeyException extends IllegalStateException {
        WrongKeyException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final SecretKeySpec key;
    private final String source;

    private KeyEncryptionKey(byte[] key, String source) {
        this.key = new SecretKeySpec(key, "AES");
        this.source = source;
    }

    /**
     * The key from {@code environmentValue} (base64 of 32 bytes) when set, else from {@code file},
     * which is created with 32 random bytes, readable by its owner only, when it does not exist.
     * @throws IllegalStateException with what to do, when the key is malformed or the file is
     *         readable by others
     */
    static KeyEncryptionKey load(@Nullable String environmentValue, Path file) {
        if (environmentValue != null && !environmentValue.isBlank()) {
            String source = "the environment variable " + ENVIRONMENT_VARIABLE;
            return new KeyEncryptionKey(decode(environmentValue, source), source);
        }
        Path path = file.toAbsolutePath().normalize();
        if (!Files.exists(path)) {
            create(path);
        }
        checkOwnerOnly(path);
        String source = "the key file " + path;
        try {
            return new KeyEncryptionKey(decode(Files.readString(path, StandardCharsets.US_ASCII), source), source);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /** A fresh key for tests and tools. */
    static KeyEncryptionKey random() {
        byte[] bytes = new byte[KEY_BYTES];
        RANDOM.nextBytes(bytes);
        return new KeyEncryptionKey(bytes, "a random key");
    }

    /** Where the key came from, for messages: never the key. */
    String source() {
        return source;
    }

    /** {@code plain} encrypted and authenticated under {@code context}, as text. */
    String seal(String plain, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
            return VERSION + "." + base64.encodeToString(nonce) + "." + base64.encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has AES-GCM", e);
        }
    }

    /**
     * What {@link #seal} sealed under {@code context}.
     * @throws WrongKeyException when this key did not seal it (or it was altered)
     */
    String open(String sealed, String context) {
        String[] parts = sealed.split("\\.");
        if (parts.length != 3 || !parts[0].equals(VERSION)) {
            throw new IllegalStateException("not a sealed value of version " + VERSION);
        }
        try {
            Base64.Decoder base64 = Base64.getUrlDecoder();
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, base64.decode(parts[1])));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(base64.decode(parts[2])), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new WrongKeyException(context + " was sealed with another key than " + source, e);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException(context + " is not a readable sealed value", e);
        }
    }

    private static byte[] decode(String text, String source) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(source + " is not base64: it must hold 32 random bytes in base64"
                    + " (head -c 32 /dev/urandom | base64)");
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalStateException(source + " holds " + bytes.length + " bytes: it must hold 32 random"
                    + " bytes in base64 (head -c 32 /dev/urandom | base64)");
        }
        return bytes;
    }

    /**
     * Writes a new key beside {@code path} and links it into place, so two processes starting at
     * once both end up reading the one that was linked first, never a half-written file.
     */
    private static void create(Path path) {
        try {
            Path directory = path.getParent();
            Files.createDirectories(directory);
            Path temporary = posix(directory)
                    ? Files.createTempFile(directory, ".secret", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                    : Files.createTempFile(directory, ".secret", ".tmp");
            try {
                byte[] bytes = new byte[KEY_BYTES];
                RANDOM.nextBytes(bytes);
                Files.writeString(temporary, Base64.getEncoder().encodeToString(bytes) + "\n", StandardCharsets.US_ASCII);
                Files.createLink(path, temporary);
                log.info("Created the key that encrypts secrets at rest in {}: keep it (and back it up apart from the"
                        + " database); without it the stored signing keys cannot be read", path);
            } catch (FileAlreadyExistsException anotherProcessWasFirst) {
                // Theirs is read.
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the key file " + path + " (tributary.secrets.key-file)", e);
        }
    }

    private static void checkOwnerOnly(Path path) {
        if (!posix(path)) {
            return;
        }
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
            if (!OWNER_ONLY.containsAll(permissions) || !permissions.contains(PosixFilePermission.OWNER_READ)) {
                throw new IllegalStateException("the key file " + path + " has mode "
                        + PosixFilePermissions.toString(permissions) + ": it must be readable by its owner only"
                        + " (chmod 600 " + path + ")");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the permissions of " + path, e);
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
