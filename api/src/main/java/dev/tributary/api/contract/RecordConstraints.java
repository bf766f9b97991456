package dev.tributary.api.contract;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.tributary.api.web.ExactlyOneOf;
import dev.tributary.api.web.NonBlank;
import dev.tributary.api.web.WireId;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The project's own constraints on request records, written into their schemas from the
 * annotations the validator runs: {@link NonBlank} as its pattern (and a length of at least 1),
 * {@link WireId} as the id pattern, on a component or on a list's elements; {@link ExactlyOneOf}
 * as a {@code oneOf} with a branch per component, each requiring it given and not null. springdoc reads
 * the standard ones ({@code @Size}, {@code @Pattern}, {@code @Email}) itself. Run by
 * {@link RecordNullability}, first in springdoc's chain of converters: a converter of its own
 * would come after the model resolver, which ends the chain.
 */
final class RecordConstraints {

    private static final PropertyNamingStrategies.NamingBase SNAKE_CASE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private RecordConstraints() {
    }

    static void constrain(Class<?> record, Schema<?> model) {
        for (RecordComponent component : record.getRecordComponents()) {
            Schema<?> property = model.getProperties().get(SNAKE_CASE.translate(component.getName()));
            if (property == null) {
                continue;
            }
            AnnotatedType type = component.getAnnotatedType();
            apply(type, property, record, component);
            if (type instanceof AnnotatedParameterizedType list && property.getItems() != null) {
                apply(list.getAnnotatedActualTypeArguments()[0], property.getItems(), record, component);
            }
        }
        ExactlyOneOf one = record.getAnnotation(ExactlyOneOf.class);
        if (one != null) {
            List<Schema> branches = new ArrayList<>();
            for (String name : one.value()) {
                // "Given and not null", without a type or properties of its own: generators then keep one model
                // with every property rather than a union of classes that each know one.
                String wire = SNAKE_CASE.translate(name);
                Schema<Object> isNull = new Schema<>();
                isNull.setTypes(Set.of("null"));
                branches.add(new Schema<>().required(List.of(wire)).not(new Schema<>().addProperty(wire, isNull)));
            }
            model.setOneOf(branches);
        }
    }

    private static void apply(AnnotatedType type, Schema<?> schema, Class<?> record, RecordComponent component) {
        NonBlank nonBlank = type.getAnnotation(NonBlank.class);
        WireId id = type.getAnnotation(WireId.class);
        String pattern = nonBlank != null ? NonBlank.PATTERN : id != null ? WireId.Check.pattern(id) : null;
        if (pattern == null) {
            return;
        }
        if (schema.getPattern() != null && !schema.getPattern().equals(pattern)) {
            // JSON Schema has one pattern per schema: a second would need allOf; no record needs it yet.
            throw new IllegalStateException(record.getSimpleName() + "." + component.getName() + " has two patterns");
        }
        schema.setPattern(pattern);
        if (nonBlank != null && (schema.getMinLength() == null || schema.getMinLength() < 1)) {
            schema.setMinLength(1);
        }
    }
}
