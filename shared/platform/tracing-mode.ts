/**
 * Whether this process is a Lambda function. Outside Lambda nothing is traced, and the X-Ray SDK
 * must not install its async hooks: it does as it loads, unless told it runs in manual mode, and
 * they run on every promise (about a twentieth of the local runtime's CPU under load). tracing.ts
 * imports this module before the SDK, so it is evaluated first.
 */
export const IN_LAMBDA = process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;

if (!IN_LAMBDA) process.env.AWS_XRAY_MANUAL_MODE ??= 'true';
