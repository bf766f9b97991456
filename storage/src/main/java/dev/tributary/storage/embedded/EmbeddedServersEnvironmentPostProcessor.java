package dev.tributary.storage.embedded;

import java.util.HashMap;
import java.util.Map;

import org.apache.commons.logging.Log;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Starts the embedded MariaDB and Redis when no external ones are configured, before any bean
 * exists, and points {@code spring.datasource.*} and {@code spring.data.redis.url} (or, with
 * {@code tributary.embedded.redis=cluster}, {@code spring.data.redis.cluster.nodes}) at them.
 * With {@code spring.datasource.url} set, it instead checks that database is reachable.
 */
public class EmbeddedServersEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    static final String PROPERTY_SOURCE = "tributaryEmbeddedServers";

    private final Log log;

    public EmbeddedServersEnvironmentPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(EmbeddedServersEnvironmentPostProcessor.class);
    }

    @Override
    public int getOrder() {
        // After application.yaml and the command line have been read (config data runs at HIGHEST + 10).
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.getPropertySources().contains(PROPERTY_SOURCE)) {
            return;
        }
        boolean wantMariaDb = !StringUtils.hasText(environment.getProperty("spring.datasource.url"));
        boolean wantRedis = !StringUtils.hasText(environment.getProperty("spring.data.redis.url"))
                && !StringUtils.hasText(environment.getProperty("spring.data.redis.host"))
                && !StringUtils.hasText(environment.getProperty("spring.data.redis.cluster.nodes"))
                && !StringUtils.hasText(environment.getProperty("spring.data.redis.cluster.nodes[0]"))
                && !StringUtils.hasText(environment.getProperty("spring.data.redis.sentinel.nodes"));
        if (!wantMariaDb) {
            ExternalDatabaseCheck.verify(environment);
        }
        if (!wantMariaDb && !wantRedis) {
            return;
        }
        EmbeddedSettings settings = Binder.get(environment)
                .bindOrCreate("tributary.embedded", EmbeddedSettings.class);
        EmbeddedServers servers = EmbeddedServers.acquire(settings, wantMariaDb, wantRedis, log);
        environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE,
                properties(servers, wantMariaDb, wantRedis ? settings.redis() : null)));
        // Released as the context's first-registered disposable, so it is destroyed after the pool.
        application.addInitializers(context -> {
            if (context.getBeanFactory() instanceof DefaultSingletonBeanRegistry registry) {
                registry.registerDisposableBean("tributaryEmbeddedServers", servers::release);
            }
        });
    }

    /** Only what this context asked for: the JVM may run both kinds of Redis for different contexts. */
    private static Map<String, Object> properties(EmbeddedServers servers, boolean mariaDb, EmbeddedSettings.RedisKind redis) {
        Map<String, Object> properties = new HashMap<>();
        if (mariaDb) {
            servers.jdbcUrl().ifPresent(url -> {
                properties.put("spring.datasource.url", url);
                properties.put("spring.datasource.username", servers.credentials().mariaDbUser());
                properties.put("spring.datasource.password", servers.credentials().mariaDbPassword());
            });
        }
        if (redis == EmbeddedSettings.RedisKind.SINGLE) {
            servers.redisUrl().ifPresent(url -> properties.put("spring.data.redis.url", url));
        } else if (redis == EmbeddedSettings.RedisKind.CLUSTER) {
            servers.redisClusterNodes().ifPresent(nodes -> {
                properties.put("spring.data.redis.cluster.nodes", nodes);
                properties.put("spring.data.redis.password", servers.credentials().redisPassword());
            });
        }
        return properties;
    }
}
