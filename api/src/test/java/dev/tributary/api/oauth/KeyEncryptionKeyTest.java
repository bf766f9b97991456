package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key that seals secrets at rest: where it comes from, and what start-up refuses. */
class KeyEncryptionKeyTest {

    @TempDir Path directory;

    @Test
    void aMissingKeyFileIsCreatedOwnerOnlyAndReadBackTheSame() throws Exception {
        Path file = directory.resolve("data/secret.key");

        KeyEncryptionKey created = KeyEncryptionKey.load(null, file);
        String sealed = created.seal("the private key", "row");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Base64.getDecoder().decode(Files.readString(file).strip())).hasSize(32);
        assertThat(KeyEncryptionKey.load(null, file).open(sealed, "row")).isEqualTo("the private key");
        assertThat(sealed).doesNotContain("private");
    }

    @Test
    void theEnvironmentVariableWinsOverTheFile() {
        String key = Base64.getEncoder().encodeToString(new byte[32]);
        Path file = directory.resolve("secret.key");

        KeyEncryptionKey fromEnvironment = KeyEncryptionKey.load(key, file);

        assertThat(fromEnvironment.source()).contains("TRIBUTARY_SECRET_KEY");
        assertThat(file).doesNotExist();
        assertThat(KeyEncryptionKey.load(key, file).open(fromEnvironment.seal("x", "c"), "c")).isEqualTo("x");
    }

    @Test
    void aValueSealedWithAnotherKeyOrForAnotherRowDoesNotOpen() {
        KeyEncryptionKey one = KeyEncryptionKey.random();
        String sealed = one.seal("secret", "signing_keys/a");

        assertThatThrownBy(() -> KeyEncryptionKey.random().open(sealed, "signing_keys/a"))
                .isInstanceOf(KeyEncryptionKey.WrongKeyException.class).hasMessageContaining("another key");
        assertThatThrownBy(() -> one.open(sealed, "signing_keys/b")).isInstanceOf(KeyEncryptionKey.WrongKeyException.class);
    }

    @Test
    void aMalformedKeyFailsWithWhatItMustHold() throws Exception {
        Path shortKey = Files.writeString(directory.resolve("short.key"), Base64.getEncoder().encodeToString(new byte[16]));
        Files.setPosixFilePermissions(shortKey, PosixFilePermissions.fromString("rw-------"));
        Path notBase64 = Files.writeString(directory.resolve("text.key"), "correct horse battery staple!");
        Files.setPosixFilePermissions(notBase64, PosixFilePermissions.fromString("rw-------"));

        assertThatThrownBy(() -> KeyEncryptionKey.load(null, shortKey)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(shortKey.toString()).hasMessageContaining("holds 16 bytes")
                .hasMessageContaining("32 random bytes");
        assertThatThrownBy(() -> KeyEncryptionKey.load(null, notBase64)).hasMessageContaining("not base64");
        assertThatThrownBy(() -> KeyEncryptionKey.load("short", directory.resolve("unused.key")))
                .hasMessageContaining("TRIBUTARY_SECRET_KEY");
    }

    @Test
    void aKeyFileOthersCanReadIsRefused() throws Exception {
        Path file = directory.resolve("secret.key");
        KeyEncryptionKey.load(null, file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> KeyEncryptionKey.load(null, file)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rw-r--r--").hasMessageContaining("chmod 600");
    }
}
