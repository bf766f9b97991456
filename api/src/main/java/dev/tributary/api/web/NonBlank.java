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
 * Text with something to show: at least one character that is neither white space (as
 * {@link Character#isWhitespace} and {@link String#strip} have it) nor one XML 1.0 forbids (posts
 * drop those). Null passes (that is {@code @NotNull}'s business). The OpenAPI document states the
 * same rule as {@link #PATTERN}, the one regular expression the validator runs, so the two cannot drift.
 */
@Documented
@Constraint(validatedBy = NonBlank.Check.class)
@Target({FIELD, METHOD, PARAMETER, TYPE_USE})
@Retention(RUNTIME)
public @interface NonBlank {

    /**
     * Found (not matched whole) in any text that is not blank: JSON Schema's {@code pattern}
     * searches the same way. A plain character class, read alike by Java, ECMA-262 and Python.
     */
    String PATTERN = "[^\\u0000-\\u0020\\u1680\\u2000-\\u2006\\u2008-\\u200A\\u2028\\u2029\\u205F\\u3000\\uFFFE\\uFFFF]";

    String message() default "must not be blank";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Runs {@link #PATTERN}. */
    final class Check implements ConstraintValidator<NonBlank, CharSequence> {

        private static final Pattern VISIBLE = Pattern.compile(PATTERN);

        @Override
        public boolean isValid(@Nullable CharSequence value, ConstraintValidatorContext context) {
            return value == null || VISIBLE.matcher(value).find();
        }
    }
}
