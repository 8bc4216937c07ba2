/**
 * The stack the infrastructure tests look at (bundling skipped; test/infra/synth.test.ts runs one
 * real `cdk synth` with bundling), and its resources as one map: the nested stacks' resources are
 * merged in with their parameters replaced by what the parent passes and the parent's references
 * to nested outputs replaced by the output's value, so a reference reads the same wherever the
 * resource lives (`{Ref: <table id>}`, `{Fn::GetAtt: [<queue id>, 'Arn']}`).
 */
import { App, Stack, type NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HotelMappingStack } from '../../infra/stack';

export const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
export const stack = new HotelMappingStack(app, 'Test', { stage: 'test' });
export const template = Template.fromStack(stack);
export const workersTemplate = Template.fromStack(stack.workers);
export const functionsTemplate = Template.fromStack(stack.routeFunctions);
export const observabilityTemplate = Template.fromStack(stack.observability);

export type Resource = { Type: string; Properties: any };

type Json = any;
const parent = template.toJSON();
const nested = new Map<string, Json>(
  (
    [
      [stack.workers, workersTemplate],
      [stack.routeFunctions, functionsTemplate],
      [stack.observability, observabilityTemplate],
    ] as [NestedStack, Template][]
  ).map(([child, childTemplate]) => [stack.getLogicalId(child.nestedStackResource! as never), childTemplate.toJSON()]),
);

/** `replace` answers a node's replacement, or undefined to walk into the node. */
function walk(node: Json, replace: (node: Json) => Json): Json {
  const replaced = replace(node);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(node)) return node.map((item) => walk(item, replace));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, replace)]));
  return node;
}

/** A parent value: references to a nested stack's outputs become the output's own value. */
function inParent(node: Json): Json {
  return walk(node, (value) => {
    const [id, attribute] = (value?.['Fn::GetAtt'] ?? []) as [string?, string?];
    if (id && nested.has(id) && attribute?.startsWith('Outputs.')) {
      return inNested(id, nested.get(id).Outputs[attribute.slice('Outputs.'.length)].Value);
    }
    return undefined;
  });
}

/** A nested value: its parameters become what the parent passes them. */
function inNested(stackId: string, node: Json): Json {
  const parameters = parent.Resources[stackId].Properties.Parameters ?? {};
  return walk(node, (value) => (typeof value?.Ref === 'string' && value.Ref in parameters ? inParent(parameters[value.Ref]) : undefined));
}

/** Every resource of the stack and its nested stacks; logical ids are unique across them. */
export const resources: Record<string, Resource> = {
  ...inParent(parent.Resources),
  ...Object.assign({}, ...[...nested].map(([id, child]) => inNested(id, child.Resources))),
};

export const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
export const logicalIdOf = (construct: { node: { defaultChild?: unknown } }) =>
  Stack.of(construct as never).getLogicalId(construct.node.defaultChild as never);
