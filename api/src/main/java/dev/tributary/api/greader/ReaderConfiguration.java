package dev.tributary.api.greader;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts every Google Reader call except sign-in behind {@link ReaderRequests}, and folds the paths
 * apps use besides the canonical ones ({@link ReaderPathAliases}) before every other filter.
 */
@Configuration(proxyBeanMethods = false)
class ReaderConfiguration implements WebMvcConfigurer {

    private final ReaderRequests requests;

    ReaderConfiguration(ReaderRequests requests) {
        this.requests = requests;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(requests).addPathPatterns("/reader/api/0/**", "/reader/atom/**");
    }

    @Bean
    FilterRegistrationBean<ReaderPathAliases> readerPathAliases() {
        FilterRegistrationBean<ReaderPathAliases> registration = new FilterRegistrationBean<>(new ReaderPathAliases());
        registration.addUrlPatterns("/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
