package dev.tributary.api.web;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** Servlet-level guards of the API that run before Spring Security and any controller, and Tomcat's error page. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiSettings.class)
class WebConfiguration {

    @Bean
    FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimitFilter(ApiSettings settings, ProblemWriter problems) {
        FilterRegistrationBean<BodySizeLimitFilter> registration =
                new FilterRegistrationBean<>(new BodySizeLimitFilter(settings.maxBodySize().toBytes(), problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /** Outermost: a store failure anywhere inside, the security chain's token look-up included, is a 503. */
    @Bean
    FilterRegistrationBean<StoreUnavailableFilter> storeUnavailableFilter(ProblemWriter problems) {
        FilterRegistrationBean<StoreUnavailableFilter> registration = new FilterRegistrationBean<>(new StoreUnavailableFilter(problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    /**
     * Each connection's read buffer: Tomcat's 8 KB default is a third of an open live stream's heap, and a
     * request's line and headers fit the connection's header buffer, not this one.
     */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> connectionReadBuffer(ApiSettings settings) {
        String bytes = Long.toString(settings.connectionReadBuffer().toBytes());
        return factory -> factory.addConnectorCustomizers(connector -> {
            if (!connector.setProperty("socket.appReadBufSize", bytes)) {
                throw new IllegalStateException("Tomcat's connector took no socket.appReadBufSize");
            }
        });
    }

    /** Runs after Spring Boot's own customizer, so that the valve it adds is the one replaced. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReports() {
        return factory -> factory.addContextCustomizers(context -> ProblemReportValve.install((StandardHost) context.getParent()));
    }
}
