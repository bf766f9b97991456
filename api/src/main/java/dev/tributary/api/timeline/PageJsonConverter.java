package dev.tributary.api.timeline;

import java.io.IOException;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;

/** Writes a {@link PageJson} to the response as {@code application/json}, part by part, with its length. */
final class PageJsonConverter extends AbstractHttpMessageConverter<PageJson> {

    PageJsonConverter() {
        super(MediaType.APPLICATION_JSON);
    }

    @Override
    protected boolean supports(Class<?> type) {
        return type == PageJson.class;
    }

    @Override
    public boolean canRead(Class<?> type, MediaType mediaType) {
        return false;
    }

    @Override
    protected PageJson readInternal(Class<? extends PageJson> type, HttpInputMessage input) {
        throw new HttpMessageNotReadableException("a page is never read from a request", input);
    }

    @Override
    protected Long getContentLength(PageJson page, MediaType contentType) {
        return (long) page.length();
    }

    @Override
    protected boolean supportsRepeatableWrites(PageJson page) {
        return true;
    }

    @Override
    protected void writeInternal(PageJson page, HttpOutputMessage output) throws IOException {
        page.writeTo(output.getBody());
    }
}
