package dev.tributary.api.contract;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a strictly typed client generated from the document needs from each record it reads or
 * sends: the record's components marked {@code @Nullable} may be null ({@code type: [..., "null"]}),
 * every other one is {@code required}. Read from the records themselves, so a new field is
 * described right without an annotation of its own. A nullable component that is another model
 * (a {@code $ref}) is left out of {@code required} only.
 */
class RecordNullability implements ModelConverter {

    private static final PropertyNamingStrategies.NamingBase SNAKE_CASE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    @Override
    public @Nullable Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        Schema resolved = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
        Class<?> raw = Json31.mapper().constructType(type.getType()).getRawClass();
        if (resolved != null && raw.isRecord()) {
            Schema model = resolved.get$ref() == null ? resolved
                    : context.getDefinedModels().get(resolved.get$ref().substring(resolved.get$ref().lastIndexOf('/') + 1));
            if (model != null && model.getProperties() != null) {
                describe(raw, model);
                RecordConstraints.constrain(raw, model);
            }
        }
        return resolved;
    }

    @SuppressWarnings("unchecked")
    private static void describe(Class<?> record, Schema<?> model) {
        List<String> required = new ArrayList<>();
        for (RecordComponent component : record.getRecordComponents()) {
            String name = SNAKE_CASE.translate(component.getName());
            Schema<Object> property = (Schema<Object>) model.getProperties().get(name);
            if (property == null) {
                continue;
            }
            if (!component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                required.add(name);
            } else if (property.get$ref() == null) {
                Set<String> types = property.getTypes() == null ? new LinkedHashSet<>() : new LinkedHashSet<>(property.getTypes());
                if (property.getType() != null) {
                    types.add(property.getType());
                }
                if (!types.isEmpty()) {
                    types.add("null");
                    property.setTypes(types);
                }
                if (property.getEnum() != null && !property.getEnum().isEmpty() && !property.getEnum().contains(null)) {
                    // An enum must list null too, or a validator refuses the null the type allows.
                    List<Object> values = new ArrayList<>(property.getEnum());
                    values.add(null);
                    property.setEnum(values);
                }
            }
        }
        model.setRequired(required.isEmpty() ? null : required);
    }
}
