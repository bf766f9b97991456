package dev.tributary.api.timeline;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Lets controllers answer with a {@link PageJson}. */
@Configuration(proxyBeanMethods = false)
class PageJsonConfiguration implements WebMvcConfigurer {

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
        converters.addCustomConverter(new PageJsonConverter());
    }
}
