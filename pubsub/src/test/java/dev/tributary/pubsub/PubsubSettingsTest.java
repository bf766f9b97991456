package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Settings out of range stop the start-up with a message naming the setting. */
class PubsubSettingsTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({FanoutSettings.class, TimelineSettings.class, LimitSettings.class, RuleSettings.class})
    static class SettingsOnly {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(SettingsOnly.class);

    @ParameterizedTest
    @ValueSource(strings = {"tributary.fanout.workers=-1", "tributary.fanout.batch-size=0", "tributary.fanout.batch-size=100000",
            "tributary.fanout.lease-ttl=10ms", "tributary.fanout.poll-interval=0s", "tributary.timeline.max-entries=0",
            "tributary.timeline.counter-ttl=1s", "tributary.timeline.trim-interval=-1s", "tributary.fanout.workers=lots",
            "tributary.timeline.count-horizon-lag=0s", "tributary.timeline.count-horizon-lag=2h",
            "tributary.timeline.count-horizon-interval=1ms", "tributary.timeline.count-horizon-interval=soon",
            "tributary.timeline.count-fold-at=0", "tributary.timeline.count-horizon-max-lag=1s",
            "tributary.timeline.count-promote-at=0", "tributary.timeline.count-promoted-for=10s", "tributary.timeline.count-promoted-for=2d",
            "tributary.limits.subscriptions=0", "tributary.limits.tokens=-5", "tributary.limits.posts-per-minute=0",
            "tributary.limits.memberships=many", "tributary.rules.item-budget=0", "tributary.rules.batch-budget=-1"})
    void refusesToStartWith(String setting) {
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            StringBuilder messages = new StringBuilder();
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            String prefix = setting.substring(0, setting.lastIndexOf('.'));
            String name = setting.substring(setting.lastIndexOf('.') + 1, setting.indexOf('='));
            assertThat(messages.toString()).contains(prefix).containsAnyOf(name, toCamel(name));
        });
    }

    @Test
    void hasDefaultsForEverything() {
        runner.run(context -> {
            assertThat(context.getBean(TimelineSettings.class).maxEntries()).isEqualTo(800);
            assertThat(context.getBean(FanoutSettings.class).workers()).isEqualTo(2);
            assertThat(context.getBean(FanoutSettings.class).batchSize()).isEqualTo(1000);
            LimitSettings limits = context.getBean(LimitSettings.class);
            assertThat(limits.of(Quota.SUBSCRIPTIONS)).isEqualTo(5000);
            assertThat(limits.of(Quota.ATTACHED_FEEDS)).isEqualTo(50);
            assertThat(limits.of(Quota.GROUPS_OWNED)).isEqualTo(100);
            assertThat(limits.of(Quota.MEMBERSHIPS)).isEqualTo(1000);
            assertThat(limits.of(Quota.TOKENS)).isEqualTo(100);
            assertThat(limits.of(Quota.RULES)).isEqualTo(100);
            assertThat(limits.postsPerMinute()).isEqualTo(30);
            assertThat(limits.commentsPerMinute()).isEqualTo(30);
            assertThat(context.getBean(RuleSettings.class).itemBudget()).isEqualTo(10_000_000);
            assertThat(context.getBean(RuleSettings.class).batchBudget()).isEqualTo(50_000_000);
        });
    }

    private static String toCamel(String kebab) {
        StringBuilder camel = new StringBuilder();
        for (String part : kebab.split("-")) {
            camel.append(camel.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return camel.toString();
    }
}
