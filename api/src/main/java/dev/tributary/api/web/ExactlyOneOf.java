package dev.tributary.api.web;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * On a request record: exactly one of the named components is given (not null). A 400 names each
 * of them otherwise; the OpenAPI document states the rule as a {@code oneOf} with one branch per
 * component, read from this annotation.
 */
@Documented
@Constraint(validatedBy = ExactlyOneOf.Check.class)
@Target(TYPE)
@Retention(RUNTIME)
public @interface ExactlyOneOf {

    /** The record components, by their Java names. */
    String[] value();

    String message() default "";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Counts the given components; each named one gets the violation, under its wire name. */
    final class Check implements ConstraintValidator<ExactlyOneOf, Record> {

        private List<String> names = List.of();

        @Override
        public void initialize(ExactlyOneOf annotation) {
            names = List.of(annotation.value());
        }

        @Override
        public boolean isValid(Record value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            List<String> given = new ArrayList<>();
            for (RecordComponent component : value.getClass().getRecordComponents()) {
                if (names.contains(component.getName()) && read(component, value) != null) {
                    given.add(component.getName());
                }
            }
            if (given.size() == 1) {
                return true;
            }
            String wire = String.join(", ", names.stream().map(JsonNames::snakeCase).toList());
            context.disableDefaultConstraintViolation();
            for (String name : given.isEmpty() ? names : given) {
                context.buildConstraintViolationWithTemplate("exactly one of " + wire + " is needed").addPropertyNode(name)
                        .addConstraintViolation();
            }
            return false;
        }

        private static Object read(RecordComponent component, Record value) {
            try {
                component.getAccessor().setAccessible(true);
                return component.getAccessor().invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + component.getName() + " of " + value.getClass(), e);
            }
        }
    }
}
