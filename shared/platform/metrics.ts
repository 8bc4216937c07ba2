/**
 * Business metrics as CloudWatch embedded metric format (EMF) lines, through Powertools for AWS
 * Lambda's Metrics: written to the log, turned into metrics by CloudWatch, no API call. Each is
 * published as it is recorded (one EMF line), so concurrent work in one process (the local
 * runtime) never mixes dimensions. Dimensions stay few and small: never an organization or a job.
 * Outside Lambda they are written only at LOG_LEVEL info or below (`LOG_LEVEL=info npm start`).
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'HotelMapping';
/** The `service` of every log line and the one dimension every metric has. */
export const SERVICE_NAME = 'hotel-mapping';

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

/** A metric's name, PascalCase (`JobsCreated`): each capability names what it counts beside the code that counts it. */
export type MetricName = string;

function enabled(): boolean {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) return true;
  const level = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  return level === 'debug' || level === 'info';
}

export function recordCount(name: MetricName, value = 1, dimensions: Readonly<Record<string, string>> = {}): void {
  record(name, MetricUnit.Count, value, dimensions);
}

export function recordMilliseconds(name: MetricName, value: number, dimensions: Readonly<Record<string, string>> = {}): void {
  record(name, MetricUnit.Milliseconds, value, dimensions);
}

function record(
  name: MetricName,
  unit: (typeof MetricUnit)[keyof typeof MetricUnit],
  value: number,
  dimensions: Readonly<Record<string, string>>,
): void {
  if (!enabled()) return;
  const single = metrics.singleMetric();
  for (const [dimension, dimensionValue] of Object.entries(dimensions)) single.addDimension(dimension, dimensionValue);
  single.addMetric(name, unit, value);
}
