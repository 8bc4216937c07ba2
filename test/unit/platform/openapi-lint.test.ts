/**
 * The OpenAPI document partners generate clients from passes the two linters they are likely to
 * run: Redocly's recommended rules and Spectral's spectral:oas, both offline, errors and warnings
 * alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { API_INFO } from '../../../shared/docs';
import { buildOpenApiDocument } from '../../../shared/platform/http/openapi';
import { componentSchemas, routes, tagDescriptions } from '../../../shared/routes';
import { webhookDescriptions } from '../../../shared/webhooks';

const document = JSON.stringify(
  buildOpenApiDocument(routes, {
    serverUrl: '/',
    info: API_INFO,
    webhooks: webhookDescriptions,
    tags: tagDescriptions,
    schemas: componentSchemas,
  }),
);

describe('the OpenAPI document under the linters', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const problems = await lintFromString({
      source: document,
      config: await createConfig({ extends: ['recommended'] }),
      absoluteRef: '/openapi.json',
    });
    assert.deepEqual(
      problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`),
      [],
    );
  });

  it("passes Spectral's spectral:oas with no error and no warning", async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new spectralCore.Document(document, spectralParsers.Json, '/openapi.json'));
    assert.deepEqual(
      results.map((result) => `${result.code}: ${result.message} at ${result.path.join('.')}`),
      [],
    );
  });
});
