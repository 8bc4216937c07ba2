/** The delivery destination endpoints. */
import { rateLimited } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { rateLimiterOf } from '../platform/rate-limits';
import * as manage from './manage';
import type { fileDeliveryRoutes } from './routes';
import { managePorts, serviceAccountOf } from './services';
import { destinationStoreOf, fileDeliveryStoreOf } from './store';
import { destinationView, fileDeliveryView } from './views';

type Routes = typeof fileDeliveryRoutes;

/** Tests per organization and minute: each holds a connection to the partner's server. */
const TEST_RATE = { bucket: 'delivery-destination-test', limit: 10, windowSeconds: 60 };

export const createDeliveryDestination: Implementation<Routes['createDeliveryDestination']> = async ({ principal, body }, runtime) => {
  const destination = await manage.createDestination(managePorts(runtime), principal.organizationId, body);
  return { status: 201, json: destinationView(destination, serviceAccountOf(runtime)) };
};

export const listDeliveryDestinations: Implementation<Routes['listDeliveryDestinations']> = async ({ principal }, runtime) => {
  const destinations = await destinationStoreOf(runtime).list(principal.organizationId);
  return {
    status: 200,
    json: {
      destinations: destinations.map((destination) => destinationView(destination, serviceAccountOf(runtime))),
      total: destinations.length,
    },
  };
};

export const getDeliveryDestination: Implementation<Routes['getDeliveryDestination']> = async ({ principal, params }, runtime) => {
  const destination = await manage.requireDestination({ destinations: destinationStoreOf(runtime) }, principal.organizationId, params.id);
  return { status: 200, json: destinationView(destination, serviceAccountOf(runtime)) };
};

export const updateDeliveryDestination: Implementation<Routes['updateDeliveryDestination']> = async (
  { principal, params, body },
  runtime,
) => {
  const destination = await manage.updateDestination(managePorts(runtime), principal.organizationId, params.id, body);
  return { status: 200, json: destinationView(destination, serviceAccountOf(runtime)) };
};

export const deleteDeliveryDestination: Implementation<Routes['deleteDeliveryDestination']> = async ({ principal, params }, runtime) => {
  const destinations = destinationStoreOf(runtime);
  await manage.requireDestination({ destinations }, principal.organizationId, params.id);
  await destinations.delete(principal.organizationId, params.id);
  return { status: 204 };
};

export const testDeliveryDestination: Implementation<Routes['testDeliveryDestination']> = async ({ principal, params }, runtime) => {
  const ports = managePorts(runtime);
  const destination = await manage.requireDestination(ports, principal.organizationId, params.id);
  if (!(await rateLimiterOf(runtime).tryConsume(principal.organizationId, TEST_RATE, runtime.clock.now()))) {
    throw rateLimited(`At most ${TEST_RATE.limit} destination tests per minute; try again shortly.`);
  }
  return { status: 200, json: await manage.testDestination(ports, destination) };
};

export const listFileDeliveries: Implementation<Routes['listFileDeliveries']> = async ({ principal, params, query }, runtime) => {
  await manage.requireDestination({ destinations: destinationStoreOf(runtime) }, principal.organizationId, params.id);
  const page = await fileDeliveryStoreOf(runtime).list(principal.organizationId, params.id, {
    limit: query.limit ?? 20,
    cursor: query.cursor,
  });
  return { status: 200, json: { deliveries: page.deliveries.map(fileDeliveryView), nextCursor: page.nextCursor } };
};
