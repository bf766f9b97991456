package dev.tributary.api.oauth;

import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where the key that encrypts secrets at rest comes from ({@code tributary.secrets.*}): the
 * environment variable {@value KeyEncryptionKey#ENVIRONMENT_VARIABLE} when set, else this file,
 * created (owner-only) at the first start. Never the database: a backup or replica of it alone
 * must not carry what it takes to sign tokens.
 * @param keyFile the key file; by default {@code secret.key} in the embedded data directory
 */
@ConfigurationProperties("tributary.secrets")
@Validated
record SecretsSettings(@NotNull Path keyFile) {
}
