package dev.tributary.api.web;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the HTTP API ({@code tributary.api.*}).
 * @param maxBodySize largest request body; larger ones get 413 before they are read
 * @param loginFailuresPerAccount failed password checks of one account from one client address before that address is
 *        locked out of it for {@code loginLockout}; as many across all addresses leave each address that failed no further try
 * @param loginFailuresPerAddress failed password checks of any accounts from one client address before it is locked out
 * @param loginLockout how long a lock-out lasts (counted from the latest failure)
 * @param tokenCacheTtl how long a node trusts a cached bearer token; revocations evict at once on every node
 * @param connectionReadBuffer the buffer each open connection reads through (Tomcat's {@code socket.appReadBufSize}):
 *        held for the connection's life, it is most of what an idle connection or a live stream costs; request
 *        headers (up to Tomcat's 8 KB) and bodies are read through it in pieces of this size
 */
@ConfigurationProperties("tributary.api")
@Validated
public record ApiSettings(
        @DefaultValue("2MB") DataSize maxBodySize,
        @DefaultValue("5") @Min(1) int loginFailuresPerAccount,
        @DefaultValue("20") @Min(1) int loginFailuresPerAddress,
        @DefaultValue("15m") Duration loginLockout,
        @DefaultValue("60s") Duration tokenCacheTtl,
        @DefaultValue("2KB") DataSize connectionReadBuffer) {

    public ApiSettings {
        if (maxBodySize.toBytes() < 1024) {
            throw new IllegalArgumentException("tributary.api.max-body-size must be at least 1KB, not " + maxBodySize);
        }
        if (loginLockout.isNegative() || loginLockout.isZero()) {
            throw new IllegalArgumentException("tributary.api.login-lockout must be positive, not " + loginLockout);
        }
        if (connectionReadBuffer.toBytes() < 1024 || connectionReadBuffer.toBytes() > 1024 * 1024) {
            throw new IllegalArgumentException("tributary.api.connection-read-buffer must be between 1KB and 1MB, not "
                    + connectionReadBuffer);
        }
        if (tokenCacheTtl.isNegative()) {
            throw new IllegalArgumentException("tributary.api.token-cache-ttl must not be negative, not " + tokenCacheTtl);
        }
    }
}
