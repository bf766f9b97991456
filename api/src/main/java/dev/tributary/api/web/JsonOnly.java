package dev.tributary.api.web;

import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * The API writes JSON as {@code application/json} only (problems as {@code application/problem+json},
 * feeds and OPML as their documented types). Spring would otherwise also answer YAML, CBOR or Smile
 * (whose converters come in with libraries on the classpath, in Jackson's defaults: camelCase,
 * epoch dates, not the contract), and label a success body with whatever {@code +json} type the
 * client's {@code Accept} named, {@code application/problem+json} included.
 */
@Configuration(proxyBeanMethods = false)
@ControllerAdvice
class JsonOnly implements WebMvcConfigurer, ResponseBodyAdvice<Object> {

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
        converters.configureMessageConvertersList(list -> list.removeIf(JsonOnly::otherFormat));
    }

    private static boolean otherFormat(HttpMessageConverter<?> converter) {
        return converter.getSupportedMediaTypes().stream().map(MediaType::getSubtype)
                .anyMatch(subtype -> subtype.contains("yaml") || subtype.contains("cbor") || subtype.contains("smile"));
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType, MediaType selected,
            Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request, ServerHttpResponse response) {
        // The converter keeps a Content-Type already set: a success body is application/json whatever +json was asked for.
        if (!(body instanceof ProblemDetail) && selected.getSubtype().endsWith("+json")
                && response.getHeaders().getContentType() == null) {
            response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        }
        return body;
    }
}
