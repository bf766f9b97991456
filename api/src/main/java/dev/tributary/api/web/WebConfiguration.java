package dev.tributary.api.web;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** Servlet-level guards of the API that run before Spring Security and any controller. */
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
}
