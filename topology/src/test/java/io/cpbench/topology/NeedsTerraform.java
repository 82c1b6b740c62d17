package io.cpbench.topology;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Optional;

/**
 * A test class or method that needs the {@code terraform} binary (the AWS lab's files read by Terraform itself).
 * Terraform is not in Debian's packages and nothing may be downloaded at test time, so {@code .ci/run} cannot install
 * it: where it is missing the test is skipped with the reason, and in CI ({@code CI=true}) or with
 * {@code CPBENCH_TERRAFORM_REQUIRED=true} it fails instead ({@link Requirement}).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(NeedsTerraform.Condition.class)
public @interface NeedsTerraform {

    final class Condition implements ExecutionCondition {

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Optional<String> missing = Terraform.find().isPresent() ? Optional.empty()
                    : Optional.of("no 'terraform' on the PATH (Terraform >= 1.5; not in Debian's packages)");
            return Requirement.decide("Terraform", missing, "CPBENCH_TERRAFORM_REQUIRED");
        }
    }
}
