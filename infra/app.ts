/**
 * The CDK app: `npx cdk deploy` (or `npm run synth`). The stage comes from context:
 * `npx cdk deploy -c stage=prod -c production=true -c retainData=true -c alarmEmail=… -c webAcl=stack`.
 * Whether the stage serves partners (and so must have its alarms told, a web ACL, retainData said
 * and real Stripe price ids) is the explicit `production` flag, and whether it keeps its data the
 * `retainData` flag (HotelMappingStack), never guessed from the stage's name: a stage named like
 * production (prod, Prod, production…) refuses to synthesize until `production` is said either way.
 * Synthesis fails when cdk-nag's AwsSolutions rules find an error that is not acknowledged with a
 * reason, and prints each warning not acknowledged (the infrastructure tests refuse those too).
 */
import { App } from 'aws-cdk-lib';
import { awsSolutionsFindings, describeViolations } from './nag';
import { HotelMappingStack } from './stack';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? 'dev';
new HotelMappingStack(app, `HotelMapping-${stage}`, { stage });

const { errors, warnings } = awsSolutionsFindings(app);
if (warnings.length > 0) process.stderr.write(`cdk-nag AwsSolutions warnings:\n${describeViolations(warnings)}\n`);
if (errors.length > 0) {
  process.stderr.write(`cdk-nag AwsSolutions errors:\n${describeViolations(errors)}\n`);
  process.exit(1);
}
app.synth();
