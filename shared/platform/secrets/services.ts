/** The runtime's secret box: KMS in AWS, a local key for the local runtime and tests. */
import { KMSClient } from '@aws-sdk/client-kms';
import { requireSetting } from '../config';
import { service } from '../runtime';
import { KmsSecretBox } from './kms-secret-box';
import { LocalSecretBox } from './local-secret-box';
import type { SecretBox } from './secret-box';
import { traced } from '../tracing';

export const secretBoxOf = /* @__PURE__ */ service((runtime): SecretBox => {
  const { secretsKeyArn, localSecretsKey, region } = runtime.config;
  if (!secretsKeyArn && localSecretsKey) return new LocalSecretBox(Buffer.from(localSecretsKey, 'base64'));
  // Neither set: requireSetting throws, naming the AWS setting.
  const keyArn = requireSetting(runtime.config, 'secretsKeyArn');
  return new KmsSecretBox(traced(new KMSClient({ region })), keyArn);
});
