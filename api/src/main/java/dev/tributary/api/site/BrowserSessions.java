package dev.tributary.api.site;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.config.SessionRepositoryCustomizer;
import org.springframework.session.data.redis.RedisSessionRepository;
import org.springframework.session.data.redis.config.annotation.web.http.EnableRedisHttpSession;
import org.springframework.session.web.http.CookieSerializer;
import org.springframework.session.web.http.DefaultCookieSerializer;

/**
 * Browser sessions in Redis (Spring Session): any node serves any signed-in browser, and a node's
 * restart signs nobody out. Only browsers have sessions; API calls with bearer tokens never do.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WebSettings.class)
@EnableRedisHttpSession(redisNamespace = "tributary:session")
class BrowserSessions {

    @Bean
    SessionRepositoryCustomizer<RedisSessionRepository> sessionTimeout(WebSettings settings) {
        return repository -> repository.setDefaultMaxInactiveInterval(settings.sessionTimeout());
    }

    /** HttpOnly and SameSite=Lax; kept across browser restarts; Secure whenever the request was. */
    @Bean
    CookieSerializer sessionCookie(WebSettings settings) {
        DefaultCookieSerializer cookie = new DefaultCookieSerializer();
        cookie.setCookieName(settings.sessionCookie());
        cookie.setUseHttpOnlyCookie(true);
        cookie.setSameSite("Lax");
        cookie.setCookieMaxAge((int) Math.min(Integer.MAX_VALUE, settings.sessionTimeout().toSeconds()));
        return cookie;
    }
}
