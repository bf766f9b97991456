package dev.tributary.api.operate;

import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.Switches;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/switches} on the management port: reads every switch, and flips one with
 * {@code POST /actuator/switches/{feature}} and a body {@code {"on": false}}. Flips reach every
 * node through Redis.
 */
@Component
@Endpoint(id = "switches")
class SwitchesEndpoint {

    private final Switches switches;

    SwitchesEndpoint(Switches switches) {
        this.switches = switches;
    }

    @ReadOperation
    Map<String, String> all() {
        return view(switches.all());
    }

    @ReadOperation
    WebEndpointResponse<Map<String, String>> one(@Selector String feature) {
        return Feature.of(feature).map(f -> new WebEndpointResponse<>(view(Map.of(f, switches.isOn(f)))))
                .orElseGet(() -> new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND));
    }

    /**
     * {@code POST /actuator/switches/{feature}/on} or {@code …/off}: the state is in the path, not a
     * JSON body, as the app's strict JSON would refuse the boolean actuator reads as a string.
     */
    @WriteOperation
    WebEndpointResponse<Map<String, String>> flip(@Selector String feature, @Selector String state) {
        Optional<Feature> known = Feature.of(feature);
        if (known.isEmpty()) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        if (!state.equals("on") && !state.equals("off")) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        switches.set(known.get(), state.equals("on"));
        return new WebEndpointResponse<>(view(Map.of(known.get(), switches.isOn(known.get()))));
    }

    /** "on" / "off" by wire name, in the features' order. */
    static Map<String, String> view(Map<Feature, Boolean> states) {
        Map<String, String> view = new LinkedHashMap<>();
        for (Feature feature : Feature.values()) {
            Boolean on = states.get(feature);
            if (on != null) {
                view.put(feature.wireName(), on ? "on" : "off");
            }
        }
        return view;
    }
}
