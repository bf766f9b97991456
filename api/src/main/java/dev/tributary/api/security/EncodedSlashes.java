package dev.tributary.api.security;

import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.stereotype.Component;

/**
 * Lets {@code %2F} reach the application undecoded (Tomcat refuses it with a bare 400 by default):
 * Google Reader apps put url-encoded stream ids in paths. Passed through, never decoded, so an
 * encoded slash can never change which handler a path maps to; {@link ReaderStreamFirewall} still
 * refuses it on every other route.
 */
@Component
class EncodedSlashes implements TomcatConnectorCustomizer {

    @Override
    public void customize(org.apache.catalina.connector.Connector connector) {
        connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
    }
}
