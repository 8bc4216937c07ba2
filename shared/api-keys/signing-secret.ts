import { PLATFORM_SETTINGS, type AppConfig } from '../platform/config';
import type { SigningSecretSource } from './bearer-tokens';
import { traced } from '../platform/tracing';

/**
 * The bearer-token signing secret: given directly to the local runtime, read from Secrets Manager
 * once per Lambda container in AWS (the SDK client is loaded only by functions that need it).
 */
export function signingSecretSource(config: Pick<AppConfig, 'tokenSigningSecret' | 'tokenSigningSecretArn' | 'region'>): SigningSecretSource {
  const { tokenSigningSecret, tokenSigningSecretArn, region } = config;
  if (tokenSigningSecret) {
    const secret = new TextEncoder().encode(tokenSigningSecret);
    return async () => secret;
  }
  if (!tokenSigningSecretArn) {
    return async () => {
      throw new Error(`No bearer-token signing secret is configured (${PLATFORM_SETTINGS.variables.tokenSigningSecretArn}).`);
    };
  }
  let cached: Promise<Uint8Array> | undefined;
  return () =>
    (cached ??= (async () => {
      const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
      const { SecretString } = await traced(new SecretsManagerClient({ region })).send(
        new GetSecretValueCommand({ SecretId: tokenSigningSecretArn }),
      );
      if (!SecretString) throw new Error('The bearer-token signing secret is empty.');
      return new TextEncoder().encode(SecretString);
    })().catch((error: unknown) => {
      cached = undefined; // retry on the next request rather than failing the container forever
      throw error;
    }));
}
