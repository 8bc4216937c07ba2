/**
 * cdk-nag's AwsSolutions rules over a construct tree. Run by the CDK app (synth fails on an
 * unacknowledged error) and by the infrastructure tests. Accepted findings are acknowledged, with
 * their reasons, in infra/nag-acknowledgements.ts (Validations.of(...).acknowledge).
 */
import type { PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export function awsSolutionsErrors(scope: IConstruct): PolicyViolation[] {
  return new AwsSolutionsChecks(undefined, { verbose: true })
    .validateScope(scope)
    .violations.filter((violation) => violation.severity === 'error');
}

export function describeViolations(violations: PolicyViolation[]): string {
  return violations
    .map((v) => `${v.ruleName}: ${v.description}\n  ${v.violatingResources.map((r) => r.constructPath).join('\n  ')}`)
    .join('\n');
}
