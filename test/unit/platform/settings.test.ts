import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { loadConfig, queueArnVariable, queueUrlVariable, requireSetting, SETTING_VARIABLES, settingsEnvironment, type TextSetting } from '../../../shared/platform/config';

describe('the settings, each named once', () => {
  it('reads back every setting the stack writes, under the one name', () => {
    const written = Object.fromEntries(Object.keys(SETTING_VARIABLES).map((key) => [key, `value of ${key}`])) as Record<TextSetting, string>;
    const environment = settingsEnvironment(written);
    assert.deepEqual(Object.keys(environment).sort(), Object.values(SETTING_VARIABLES).sort());
    const config = loadConfig({ ...environment, [queueUrlVariable('mapping-chunks')]: 'https://sqs/chunks', [queueArnVariable('mapping-chunks')]: 'arn:chunks' });
    for (const [key, value] of Object.entries(written)) assert.equal(config[key as TextSetting], value, key);
    assert.deepEqual(config.queueUrls, { 'mapping-chunks': 'https://sqs/chunks' });
    assert.deepEqual(config.queueArns, { 'mapping-chunks': 'arn:chunks' });
  });

  it('leaves out what is not set, and names the variable a service misses', () => {
    assert.deepEqual(settingsEnvironment({ stage: 'prod', tableName: undefined }), { STAGE: 'prod' });
    assert.throws(() => requireSetting(loadConfig({}), 'bucketName'), /Missing required environment variable BUCKET_NAME/);
  });
});
