package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;

class StorageSettingsTest {

    @EnableConfigurationProperties(StorageSettings.class)
    static class Config {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Config.class);

    @Test
    void defaultsApplyWithNothingSet() {
        runner.run(context -> {
            StorageSettings settings = context.getBean(StorageSettings.class);
            assertThat(settings).isEqualTo(StorageSettings.defaults());
            assertThat(settings.nodeId()).isNull();
            assertThat(settings.cleaner().interval()).isEqualTo(Duration.ofMinutes(10));
        });
    }

    @Test
    void propertiesBind() {
        runner.withPropertyValues("tributary.storage.node-id=12", "tributary.storage.cleaner.enabled=false",
                "tributary.storage.cleaner.interval=30s", "tributary.storage.max-body-bytes=65536").run(context -> {
            StorageSettings settings = context.getBean(StorageSettings.class);
            assertThat(settings.nodeId()).isEqualTo(12);
            assertThat(settings.cleaner().enabled()).isFalse();
            assertThat(settings.cleaner().interval()).isEqualTo(Duration.ofSeconds(30));
            assertThat(settings.maxBodyBytes()).isEqualTo(65536);
        });
    }

    @Test
    void invalidValuesStopStartUp() {
        for (String bad : new String[] {"tributary.storage.node-id=1024", "tributary.storage.backfill-batch-size=0",
                "tributary.storage.max-body-bytes=100000000", "tributary.storage.cleaner.interval=0s",
                "tributary.storage.node-lease-ttl=1s", "tributary.storage.cleaner.batch-size=-1"}) {
            runner.withPropertyValues(bad).run(context -> assertThat(context).as(bad).hasFailed());
        }
    }
}
