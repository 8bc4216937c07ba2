/**
 * The operator's guide's figures about the stack (docs/guides/operator.md, "The stack in figures"),
 * counted from the templates `cdk synth` makes of a production stage and its nested stacks, never
 * typed by hand: functions, queues and what polls them, the workers' concurrency, reserved
 * concurrency, alarms and the metrics they watch, dashboards, KMS keys, the web ACL's rules,
 * secrets, and what the stage costs while idle. `npm run docs:figures` writes the block into the
 * guide; test/infra/stack-figures.test.ts fails when the guide's block differs from a synth's.
 */
import { App, NestedStack, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { IDLE_PRICES } from '../aws-prices';
import { STACK_WEB_ACL } from '../constructs/edge-protection';
import { DEFAULT_ACCOUNT_CONCURRENCY } from '../observability';
import { HotelMappingStack, type HotelMappingStackProps } from '../stack';

/** The stage the figures describe: production, its own web ACL, its data retained, someone told of alarms. */
export const FIGURES_STAGE: HotelMappingStackProps = {
  stage: 'prod',
  production: true,
  retainData: true,
  alarmEmail: 'ops@example.com',
  webAcl: STACK_WEB_ACL,
  // Any ids but the local placeholders, which a production stage refuses.
  priceIds: {
    SUBSCRIPTION: 'price_subscription',
    ENTERPRISE: 'price_enterprise',
    creditsProduct: 'prod_credits',
    creditsPrice: 'price_credits',
  },
};

/** The guide's block lies between these. */
export const FIGURES_MARKERS = { start: '<!-- stack-figures:start -->', end: '<!-- stack-figures:end -->' } as const;

/** One polled queue: its function and how many of it may run at once. */
export interface PolledQueue {
  /** The queue table's name, with "dead letters" for a dead-letter queue. */
  queue: string;
  /** The function's file under functions/. */
  handler: string;
  /** Fed by a dead-letter queue. */
  deadLetters: boolean;
  maxConcurrency: number;
  memoryMb: number;
}

export interface StackFigures {
  functions: { total: number; routes: number; queueWorkers: number; deadLetterHandlers: number; others: string[] };
  queues: { total: number; polled: PolledQueue[] };
  reservedConcurrency: { name: string; reserved: number }[];
  alarms: { count: number; metrics: number };
  dashboards: number;
  kmsKeys: number;
  webAcls: { count: number; managedRuleGroups: number; rateRules: number; otherRules: number };
  secrets: number;
  /** The find-match route's function: its memory and timeout. */
  findMatch: { route: string; memoryMb: number; timeoutSeconds: number };
}

export interface IdleCostLine {
  what: string;
  usd: number;
  /** The web ACL's line, which a stage without one does not pay. */
  webAcl?: boolean;
}

/** A production stage, synthesized without bundling and without AWS credentials (an environment-agnostic stack). */
export function synthesizeFiguresStage(): HotelMappingStack {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return new HotelMappingStack(app, 'HotelMapping-prod', FIGURES_STAGE);
}

// A template's parts, as far as the counts read them.
interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
}
interface CfnTemplate {
  Resources?: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** One stack's template; a nested stack's parent holds it as the resource `idInParent`. */
interface StackTemplate {
  path: string;
  resources: Record<string, CfnResource>;
  outputs: Record<string, { Value: unknown }>;
  parent?: StackTemplate;
  idInParent?: string;
}

/** A resource of one template: keyed by its stack's path and logical id, unique across the nested stacks. */
interface Located {
  key: string;
  template: StackTemplate;
  id: string;
  resource: CfnResource;
}

/** The stack's template and each nested stack's, however deep. */
function templatesOf(stack: Stack): StackTemplate[] {
  const byStack = new Map<Stack, StackTemplate>();
  const templateOf = (of: Stack): StackTemplate => {
    const known = byStack.get(of);
    if (known) return known;
    const json = Template.fromStack(of).toJSON() as CfnTemplate;
    const parentStack = NestedStack.isNestedStack(of) ? of.nestedStackParent : undefined;
    const template: StackTemplate = {
      path: of.node.path,
      resources: json.Resources ?? {},
      outputs: json.Outputs ?? {},
      ...(parentStack &&
        NestedStack.isNestedStack(of) && {
          parent: templateOf(parentStack),
          idInParent: parentStack.getLogicalId(of.nestedStackResource as CfnElement),
        }),
    };
    byStack.set(of, template);
    return template;
  };
  const nested = stack.node.findAll().filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct));
  return [stack, ...nested].map(templateOf);
}

export const sumOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);

/** What Lambda gives a function whose template names no memory size. */
const LAMBDA_DEFAULT_MEMORY_MB = 128;
/** What Lambda gives a function whose template names no timeout. */
const LAMBDA_DEFAULT_TIMEOUT_SECONDS = 3;

const keyOf = (template: StackTemplate, id: string) => `${template.path}/${id}`;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `[id, attribute]` of an `Fn::GetAtt`, or `[id]` of a `Ref`; undefined for anything else. */
function referenceOf(value: unknown): [string, string?] | undefined {
  if (!isRecord(value)) return undefined;
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && typeof getAtt[1] === 'string') return [getAtt[0], getAtt[1]];
  if (typeof value.Ref === 'string') return [value.Ref];
  return undefined;
}

/**
 * The resource a value points at: a reference in its template, followed into a nested stack's
 * output or out through a nested stack's parameter; undefined for a literal or a pseudo parameter.
 */
function resolve(templates: readonly StackTemplate[], template: StackTemplate, value: unknown): Located | undefined {
  const reference = referenceOf(value);
  if (!reference) return undefined;
  const [id, attribute] = reference;
  const resource = template.resources[id];
  if (resource) {
    if (resource.Type === 'AWS::CloudFormation::Stack' && attribute?.startsWith('Outputs.')) {
      const child = templates.find((candidate) => candidate.parent === template && candidate.idInParent === id);
      const output = child?.outputs[attribute.slice('Outputs.'.length)];
      return child && output ? resolve(templates, child, output.Value) : undefined;
    }
    return { key: keyOf(template, id), template, id, resource };
  }
  const { parent, idInParent } = template;
  if (!parent || !idInParent) return undefined;
  const parameters = parent.resources[idInParent]?.Properties?.Parameters;
  return isRecord(parameters) && id in parameters ? resolve(templates, parent, parameters[id]) : undefined;
}

/** Every resource of a type, across the templates. */
function resourcesOfType(templates: readonly StackTemplate[], type: string): Located[] {
  return templates.flatMap((template) =>
    Object.entries(template.resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id, resource]) => ({ key: keyOf(template, id), template, id, resource })),
  );
}

/** The function a value names: itself, or the function of the alias it names. */
function functionOf(templates: readonly StackTemplate[], template: StackTemplate, value: unknown): Located | undefined {
  const target = resolve(templates, template, value);
  if (target?.resource.Type === 'AWS::Lambda::Alias')
    return functionOf(templates, target.template, target.resource.Properties?.FunctionName);
  return target?.resource.Type === 'AWS::Lambda::Function' ? target : undefined;
}

/** Names for the stack's functions and queues, by key: the figures read the templates, the names come from the constructs. */
function namesOf(stack: HotelMappingStack): Map<string, string> {
  const keyOfConstruct = (construct: { node: { defaultChild?: unknown } }) => {
    const owner = Stack.of(construct as never);
    return `${owner.node.path}/${owner.getLogicalId(construct.node.defaultChild as CfnElement)}`;
  };
  const names = new Map<string, string>();
  for (const [handler, fn] of stack.functions) names.set(keyOfConstruct(fn), handler);
  for (const [name, { queue, deadLetters }] of stack.queues) {
    names.set(keyOfConstruct(queue), name);
    names.set(keyOfConstruct(deadLetters), `${name} dead letters`);
  }
  return names;
}

function numberProperty(resource: CfnResource, name: string): number | undefined {
  const value = resource.Properties?.[name];
  return typeof value === 'number' ? value : undefined;
}

/** A polled queue with the key of its function, which tells queue workers from dead-letter handlers. */
type PolledBy = PolledQueue & { functionKey: string };

/** Every queue an event source polls, with its function and bound, in the templates' order. */
function polledQueuesOf(templates: readonly StackTemplate[], nameOf: (located: Located) => string): PolledBy[] {
  const queues = resourcesOfType(templates, 'AWS::SQS::Queue');
  // A dead-letter queue is the one another queue's redrive policy sends to (a holding queue too).
  const deadLetterQueues = new Set(
    queues.flatMap((queue) => {
      const policy = queue.resource.Properties?.RedrivePolicy;
      const target = isRecord(policy) ? resolve(templates, queue.template, policy.deadLetterTargetArn) : undefined;
      return target ? [target.key] : [];
    }),
  );
  return resourcesOfType(templates, 'AWS::Lambda::EventSourceMapping').flatMap((mapping): PolledBy[] => {
    const source = resolve(templates, mapping.template, mapping.resource.Properties?.EventSourceArn);
    if (source?.resource.Type !== 'AWS::SQS::Queue') return [];
    const fn = functionOf(templates, mapping.template, mapping.resource.Properties?.FunctionName);
    if (!fn) throw new Error(`The event source ${mapping.id} polls ${source.id} for no function of the stack.`);
    const scaling = mapping.resource.Properties?.ScalingConfig;
    const maxConcurrency = isRecord(scaling) ? scaling.MaximumConcurrency : undefined;
    // Unbounded, a worker could take the API's concurrency: the guide's "at most" would be false.
    if (typeof maxConcurrency !== 'number') throw new Error(`The event source ${mapping.id} on ${source.id} has no maximum concurrency.`);
    const memoryMb = numberProperty(fn.resource, 'MemorySize') ?? LAMBDA_DEFAULT_MEMORY_MB;
    return [
      {
        queue: nameOf(source),
        handler: nameOf(fn),
        deadLetters: deadLetterQueues.has(source.key),
        maxConcurrency,
        memoryMb,
        functionKey: fn.key,
      },
    ];
  });
}

/** The keys of the functions the API may invoke: the routes'. */
function routeFunctionKeysOf(templates: readonly StackTemplate[]): Set<string> {
  return new Set(
    resourcesOfType(templates, 'AWS::Lambda::Permission')
      .filter((permission) => permission.resource.Properties?.Principal === 'apigateway.amazonaws.com')
      .flatMap((permission) => functionOf(templates, permission.template, permission.resource.Properties?.FunctionName)?.key ?? []),
  );
}

function webAclsOf(templates: readonly StackTemplate[]): StackFigures['webAcls'] {
  const webAcls = resourcesOfType(templates, 'AWS::WAFv2::WebACL');
  const statements = webAcls.flatMap((acl) => {
    const rules = acl.resource.Properties?.Rules;
    return Array.isArray(rules) ? rules.map((rule) => (isRecord(rule) && isRecord(rule.Statement) ? rule.Statement : {})) : [];
  });
  const managedRuleGroups = statements.filter((statement) => 'ManagedRuleGroupStatement' in statement).length;
  const rateRules = statements.filter((statement) => 'RateBasedStatement' in statement).length;
  return { count: webAcls.length, managedRuleGroups, rateRules, otherRules: statements.length - managedRuleGroups - rateRules };
}

function alarmsOf(templates: readonly StackTemplate[]): StackFigures['alarms'] {
  const alarms = resourcesOfType(templates, 'AWS::CloudWatch::Alarm');
  // A metric alarm watches its one metric; a metric math alarm, each metric its expression reads.
  const metricsWatchedBy = (alarm: Located) => {
    const metrics = alarm.resource.Properties?.Metrics;
    return Array.isArray(metrics) ? metrics.filter((metric) => isRecord(metric) && 'MetricStat' in metric).length : 1;
  };
  return { count: alarms.length, metrics: sumOf(alarms.map(metricsWatchedBy)) };
}

/** The counts, from the templates of the stack and its nested stacks. */
export function countStackFigures(stack: HotelMappingStack): StackFigures {
  const templates = templatesOf(stack);
  const names = namesOf(stack);
  const nameOf = (located: Located) => names.get(located.key) ?? located.id;
  const functions = resourcesOfType(templates, 'AWS::Lambda::Function');
  const polledWith = polledQueuesOf(templates, nameOf);
  const routeFunctions = routeFunctionKeysOf(templates);
  const polledBy = (deadLetters: boolean) =>
    new Set(polledWith.filter((queue) => queue.deadLetters === deadLetters).map((queue) => queue.functionKey));
  const queueWorkers = polledBy(false);
  const deadLetterHandlers = polledBy(true);
  const kind = (fn: Located) =>
    routeFunctions.has(fn.key) ? 'route' : queueWorkers.has(fn.key) ? 'worker' : deadLetterHandlers.has(fn.key) ? 'deadLetters' : 'other';
  const countOf = (wanted: ReturnType<typeof kind>) => functions.filter((fn) => kind(fn) === wanted).length;
  return {
    functions: {
      total: functions.length,
      routes: countOf('route'),
      queueWorkers: countOf('worker'),
      deadLetterHandlers: countOf('deadLetters'),
      others: functions.filter((fn) => kind(fn) === 'other').map(nameOf),
    },
    queues: {
      total: resourcesOfType(templates, 'AWS::SQS::Queue').length,
      polled: polledWith.map(({ functionKey: _functionKey, ...polled }) => polled),
    },
    reservedConcurrency: functions.flatMap((fn) => {
      const reserved = numberProperty(fn.resource, 'ReservedConcurrentExecutions');
      // A route's function is named by its method and path, its description.
      const description = fn.resource.Properties?.Description;
      const name = routeFunctions.has(fn.key) && typeof description === 'string' ? description : nameOf(fn);
      return reserved === undefined ? [] : [{ name, reserved }];
    }),
    alarms: alarmsOf(templates),
    dashboards: resourcesOfType(templates, 'AWS::CloudWatch::Dashboard').length,
    kmsKeys: resourcesOfType(templates, 'AWS::KMS::Key').length,
    webAcls: webAclsOf(templates),
    secrets: resourcesOfType(templates, 'AWS::SecretsManager::Secret').length,
    findMatch: findMatchOf(functions),
  };
}

const FIND_MATCH_ROUTE = 'POST /api/v1/mapping/match';

function findMatchOf(functions: readonly Located[]): StackFigures['findMatch'] {
  const fn = functions.find((each) => each.resource.Properties?.Description === FIND_MATCH_ROUTE);
  if (!fn) throw new Error(`No function of the stack serves ${FIND_MATCH_ROUTE}.`);
  return {
    route: FIND_MATCH_ROUTE,
    memoryMb: numberProperty(fn.resource, 'MemorySize') ?? LAMBDA_DEFAULT_MEMORY_MB,
    timeoutSeconds: numberProperty(fn.resource, 'Timeout') ?? LAMBDA_DEFAULT_TIMEOUT_SECONDS,
  };
}

/** What an instance of the find-match function kept warm (`findMatchInstances`) costs a month. */
export const warmFindMatchMonthOf = (figures: StackFigures) =>
  cents((figures.findMatch.memoryMb / 1024) * IDLE_PRICES.secondsPerMonth * IDLE_PRICES.lambdaProvisionedPerGbSecond);

/** Concurrency the queue workers and dead-letter handlers take at most, together. */
export const workerConcurrencyOf = (figures: StackFigures) => sumOf(figures.queues.polled.map((queue) => queue.maxConcurrency));

/** What is left of the account's default quota for the API, once the workers and the reserved concurrency have theirs. */
export const leftForTheApiOf = (figures: StackFigures) =>
  DEFAULT_ACCOUNT_CONCURRENCY - workerConcurrencyOf(figures) - sumOf(figures.reservedConcurrency.map((fn) => fn.reserved));

const cents = (amount: number) => Math.round(amount * 100) / 100;
const usd = (amount: number) => amount.toFixed(2);
/** `1 dashboard`, `2 dashboards`. */
const counted = (amount: number, noun: string) => `${amount} ${noun}${amount === 1 ? '' : 's'}`;
const count = (amount: number) => amount.toLocaleString('en-US');

/** What the stage pays a month with no traffic, line by line. */
export function idleCostOf(figures: StackFigures): IdleCostLine[] {
  const { webAcl, sqs } = IDLE_PRICES;
  const { webAcls, alarms } = figures;
  const rules = webAcls.managedRuleGroups + webAcls.rateRules + webAcls.otherRules;
  const polledQueues = figures.queues.polled.length;
  const pollerRequests = polledQueues * sqs.pollerRequestsPerQueueMonth;
  const ruleKinds = [
    `${webAcls.managedRuleGroups} AWS managed rule groups with no subscription fee`,
    `${webAcls.rateRules} rate rules`,
    ...(webAcls.otherRules > 0 ? [`${webAcls.otherRules} other rules`] : []),
  ].join(', ');
  return [
    {
      what: `web ACL: ${webAcl.perAclMonth} USD, and ${webAcl.perRuleMonth} USD for each of its ${rules} rules (${ruleKinds})`,
      usd: cents(webAcls.count * webAcl.perAclMonth + rules * webAcl.perRuleMonth),
      webAcl: true,
    },
    {
      what: `${alarms.count} alarms watching ${alarms.metrics} metrics, ${IDLE_PRICES.alarmPerMetricMonth.toFixed(2)} USD per metric`,
      usd: cents(alarms.metrics * IDLE_PRICES.alarmPerMetricMonth),
    },
    {
      what: `${counted(figures.dashboards, 'dashboard')} (beyond an account's first three), ${IDLE_PRICES.dashboardPerMonth} USD each`,
      usd: cents(figures.dashboards * IDLE_PRICES.dashboardPerMonth),
    },
    {
      what: `${counted(figures.kmsKeys, 'KMS key')}, ${IDLE_PRICES.kmsKeyPerMonth} USD each`,
      usd: cents(figures.kmsKeys * IDLE_PRICES.kmsKeyPerMonth),
    },
    {
      what:
        `Lambda's pollers long-polling the ${polledQueues} queues with a worker or a dead-letter handler (estimated, about ` +
        `${sqs.pollerRequestsPerQueueMonth.toLocaleString('en-US')} requests per queue, ${sqs.perMillionRequests.toFixed(2)} USD per million after the first million)`,
      usd: cents((Math.max(0, pollerRequests - sqs.freeRequestsMonth) / 1_000_000) * sqs.perMillionRequests),
    },
    {
      what: `${counted(figures.secrets, 'Secrets Manager secret')}, ${IDLE_PRICES.secretPerMonth.toFixed(2)} USD each`,
      usd: cents(figures.secrets * IDLE_PRICES.secretPerMonth),
    },
  ];
}

function countsTable(figures: StackFigures): string[] {
  const { functions, queues, alarms, webAcls } = figures;
  const others =
    functions.others.length > 0 ? `, ${functions.others.length} other (${functions.others.map((name) => `\`${name}\``).join(', ')})` : '';
  const polledBy = (deadLetters: boolean) => queues.polled.filter((queue) => queue.deadLetters === deadLetters).length;
  const reserved = figures.reservedConcurrency.map((fn) => `\`${fn.name}\` ${fn.reserved}`).join(', ');
  return [
    '| what | how many |',
    '|---|---|',
    `| Lambda functions | ${functions.total}: ${functions.routes} for the routes, ${functions.queueWorkers} queue workers, ${functions.deadLetterHandlers} dead-letter handlers${others} |`,
    `| SQS queues | ${queues.total}, of which ${queues.polled.length} polled by Lambda (${polledBy(false)} by a queue worker, ${polledBy(true)} by a dead-letter handler) |`,
    `| concurrency the workers take at most | ${count(workerConcurrencyOf(figures))} (each queue's below) |`,
    `| reserved concurrency | ${sumOf(figures.reservedConcurrency.map((fn) => fn.reserved))}: ${reserved} |`,
    `| left for the API of a quota of ${count(DEFAULT_ACCOUNT_CONCURRENCY)} | ${count(leftForTheApiOf(figures))} |`,
    `| CloudWatch alarms | ${alarms.count}, watching ${alarms.metrics} metrics (each metric of a metric math alarm counted, as CloudWatch bills them) |`,
    `| CloudWatch dashboards | ${figures.dashboards} |`,
    `| KMS keys | ${figures.kmsKeys} |`,
    `| web ACL rules | ${webAcls.managedRuleGroups + webAcls.rateRules + webAcls.otherRules}: ${webAcls.managedRuleGroups} AWS managed rule groups, ${webAcls.rateRules} rate rules |`,
    `| Secrets Manager secrets | ${figures.secrets} |`,
    `| find-match's function (\`${figures.findMatch.route}\`) | ${count(figures.findMatch.memoryMb)} MB, at most ${figures.findMatch.timeoutSeconds} s a request; each instance kept warm (\`findMatchInstances\`) ${usd(warmFindMatchMonthOf(figures))} USD a month |`,
  ];
}

function concurrencyTable(figures: StackFigures): string[] {
  const gigabytes = (megabytes: number) => (megabytes / 1024).toFixed(1);
  const atOnce = (queue: PolledQueue) => queue.memoryMb * queue.maxConcurrency;
  return [
    '| queue | function | max concurrency | memory (MB) | memory at once, at most (GB) |',
    '|---|---|---|---|---|',
    ...figures.queues.polled.map(
      (queue) =>
        `| ${queue.queue} | \`${queue.handler}\` | ${queue.maxConcurrency} | ${count(queue.memoryMb)} | ${gigabytes(atOnce(queue))} |`,
    ),
    `| **all** | | **${workerConcurrencyOf(figures)}** | | **${gigabytes(sumOf(figures.queues.polled.map(atOnce)))}** |`,
  ];
}

function idleCostTable(figures: StackFigures): string[] {
  const lines = idleCostOf(figures);
  const total = sumOf(lines.map((line) => line.usd));
  const withoutWebAcl = sumOf(lines.filter((line) => !line.webAcl).map((line) => line.usd));
  return [
    '| what | USD a month |',
    '|---|---|',
    ...lines.map((line) => `| ${line.what} | ${usd(line.usd)} |`),
    `| **the production stage, idle** | **${usd(total)}** |`,
    `| a retaining stage without a web ACL, idle | ${usd(withoutWebAcl)} |`,
  ];
}

/** The guide's block, markers included. */
export function renderFiguresBlock(figures: StackFigures): string {
  return [
    FIGURES_MARKERS.start,
    '<!-- Generated by `npm run docs:figures` (infra/cli/stack-figures.ts) from the synthesized stack: do not edit by hand, run it again. -->',
    '',
    `A production stage (\`-c production=true -c retainData=true -c alarmEmail=… -c webAcl=stack\`), as \`cdk synth\` makes it:`,
    '',
    ...countsTable(figures),
    '',
    "Each polled queue's function, the most of it that runs at once, and the memory those hold:",
    '',
    ...concurrencyTable(figures),
    '',
    `Idle (no traffic), at ${IDLE_PRICES.region} list prices of ${IDLE_PRICES.asOf}:`,
    '',
    ...idleCostTable(figures),
    FIGURES_MARKERS.end,
  ].join('\n');
}

/** Where the block is in the guide: the offsets of its start marker and of the end of its end marker. */
function blockBounds(guide: string): { start: number; end: number } {
  const start = guide.indexOf(FIGURES_MARKERS.start);
  const endMarker = guide.indexOf(FIGURES_MARKERS.end);
  if (start < 0 || endMarker < start || guide.indexOf(FIGURES_MARKERS.start, start + 1) >= 0) {
    throw new Error(`The guide must hold one ${FIGURES_MARKERS.start} … ${FIGURES_MARKERS.end} block.`);
  }
  return { start, end: endMarker + FIGURES_MARKERS.end.length };
}

/** The guide's block as it stands, markers included. */
export function figuresBlockIn(guide: string): string {
  const { start, end } = blockBounds(guide);
  return guide.slice(start, end);
}

/** The guide with its block replaced by `block`. */
export function withFiguresBlock(guide: string, block: string): string {
  const { start, end } = blockBounds(guide);
  return guide.slice(0, start) + block + guide.slice(end);
}
