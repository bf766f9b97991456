package dev.tributary.api.web;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An id in a request body, spelled as {@link Ids} reads it ({@link Ids#PATTERN}; with
 * {@link #orEmpty}, {@link Ids#OPTIONAL_PATTERN}, empty meaning none). The OpenAPI document states
 * the same expression. Null passes (that is {@code @NotNull}'s business).
 */
@Documented
@Constraint(validatedBy = WireId.Check.class)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE})
@Retention(RUNTIME)
public @interface WireId {

    /** Whether an empty string is taken, as none. */
    boolean orEmpty() default false;

    String message() default "must be an id (a positive decimal number)";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Runs {@link Ids}' expressions. */
    final class Check implements ConstraintValidator<WireId, CharSequence> {

        private static final Pattern ID = Pattern.compile(Ids.PATTERN);
        private static final Pattern OPTIONAL = Pattern.compile(Ids.OPTIONAL_PATTERN);
        private boolean orEmpty;

        @Override
        public void initialize(WireId annotation) {
            orEmpty = annotation.orEmpty();
        }

        @Override
        public boolean isValid(@Nullable CharSequence value, ConstraintValidatorContext context) {
            return value == null || (orEmpty ? OPTIONAL : ID).matcher(value).matches();
        }

        /** The expression an annotation stands for, for the document. */
        public static String pattern(WireId annotation) {
            return annotation.orEmpty() ? Ids.OPTIONAL_PATTERN : Ids.PATTERN;
        }
    }
}
