import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  defineSettings,
  loadConfig,
  PLATFORM_SETTINGS,
  queueArnVariable,
  queueUrlVariable,
  requireSetting,
  type PlatformSetting,
} from '../../../shared/platform/config';

describe('the settings, each named once', () => {
  it('reads back every setting the stack writes, under the one name', () => {
    const written = Object.fromEntries(Object.keys(PLATFORM_SETTINGS.variables).map((key) => [key, `value of ${key}`])) as Record<
      PlatformSetting,
      string
    >;
    const environment = PLATFORM_SETTINGS.environment(written);
    assert.deepEqual(Object.keys(environment).sort(), Object.values(PLATFORM_SETTINGS.variables).sort());
    const config = loadConfig({
      ...environment,
      [queueUrlVariable('mapping-chunks')]: 'https://sqs/chunks',
      [queueArnVariable('mapping-chunks')]: 'arn:chunks',
    });
    for (const [key, value] of Object.entries(written)) assert.equal(config[key as PlatformSetting], value, key);
    assert.deepEqual(config.queueUrls, { 'mapping-chunks': 'https://sqs/chunks' });
    assert.deepEqual(config.queueArns, { 'mapping-chunks': 'arn:chunks' });
  });

  it('leaves out what is not set, and names the variable a service misses', () => {
    assert.deepEqual(PLATFORM_SETTINGS.environment({ stage: 'prod', tableName: undefined }), { STAGE: 'prod' });
    assert.throws(() => requireSetting(loadConfig({}), 'bucketName'), /Missing required environment variable BUCKET_NAME/);
  });

  it("reads a capability's own settings from the configuration's variables, and writes them back", () => {
    const settings = defineSettings({ apiUrl: 'PROVIDER_API_URL', secretArn: 'PROVIDER_SECRET_ARN' });
    assert.deepEqual(settings.environment({ apiUrl: 'https://provider.test', secretArn: undefined }), {
      PROVIDER_API_URL: 'https://provider.test',
    });
    const config = loadConfig({ PROVIDER_API_URL: 'https://provider.test', PROVIDER_SECRET_ARN: '' });
    // An empty variable is an unset one, as for the platform's settings.
    assert.deepEqual(settings.read(config), { apiUrl: 'https://provider.test' });
    assert.deepEqual(settings.read({}), {});
  });
});
