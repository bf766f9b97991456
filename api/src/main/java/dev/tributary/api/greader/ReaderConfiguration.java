package dev.tributary.api.greader;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts every Google Reader call except sign-in behind {@link ReaderRequests}. */
@Configuration(proxyBeanMethods = false)
class ReaderConfiguration implements WebMvcConfigurer {

    private final ReaderRequests requests;

    ReaderConfiguration(ReaderRequests requests) {
        this.requests = requests;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(requests).addPathPatterns("/reader/api/0/**");
    }
}
