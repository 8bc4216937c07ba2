/**
 * cdk-nag's AwsSolutions rules over a construct tree. Run by the CDK app (synth fails on an
 * unacknowledged error and prints every unacknowledged warning) and by the infrastructure tests
 * (which accept neither). Accepted findings are acknowledged, with their reasons, in
 * infra/nag-acknowledgements.ts (Validations.of(...).acknowledge).
 */
import type { PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** The findings no acknowledgement covers, by severity. */
export interface AwsSolutionsFindings {
  errors: PolicyViolation[];
  warnings: PolicyViolation[];
}

export function awsSolutionsFindings(scope: IConstruct): AwsSolutionsFindings {
  const { violations } = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(scope);
  return {
    errors: violations.filter((violation) => violation.severity === 'error'),
    warnings: violations.filter((violation) => violation.severity !== 'error'),
  };
}

export function describeViolations(violations: PolicyViolation[]): string {
  return violations
    .map((v) => `${v.ruleName}: ${v.description}\n  ${v.violatingResources.map((r) => r.constructPath).join('\n  ')}`)
    .join('\n');
}
