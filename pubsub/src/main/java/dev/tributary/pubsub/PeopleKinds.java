package dev.tributary.pubsub;

import dev.tributary.storage.EntityKind;
import dev.tributary.storage.IndexColumn;
import dev.tributary.storage.IndexDefinition;
import dev.tributary.storage.IndexKey;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code user} entity kind and its indexes (tables in {@code V2026_11_21_04__accounts.sql}). */
@Configuration(proxyBeanMethods = false)
class PeopleKinds {

    /** {@code account_usernames.username} is VARCHAR(30); the api's rule for usernames keeps within it. */
    static final int MAX_USERNAME_LENGTH = 30;

    static final EntityKind<Account> ACCOUNT = new EntityKind<>("user", Account.class);

    static final IndexDefinition<Account> USERNAMES = IndexDefinition.unique("account_usernames", "account_usernames",
            ACCOUNT, List.of(IndexColumn.varchar("username", MAX_USERNAME_LENGTH)),
            account -> List.of(IndexKey.of(account.username())));

    static final IndexDefinition<Account> FEED_TOKENS = IndexDefinition.unique("account_feed_tokens",
            "account_feed_tokens", ACCOUNT, List.of(IndexColumn.hash("token_hash")),
            account -> List.of(IndexKey.of(account.feedToken())));

    @Bean
    EntityKind<Account> accountKind() {
        return ACCOUNT;
    }

    @Bean
    IndexDefinition<Account> accountUsernames() {
        return USERNAMES;
    }

    @Bean
    IndexDefinition<Account> accountFeedTokens() {
        return FEED_TOKENS;
    }
}
