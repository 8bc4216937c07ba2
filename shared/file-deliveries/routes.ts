import { defineRoute } from '../platform/http/route';
import { errors } from '../platform/http/responses';
import { ErrorResponse } from '../platform/http/schemas';
import * as schemas from './schemas';

const TAG = 'Delivery destinations';
const hostRules =
  'Hosts and endpoints must resolve to public addresses, as webhook URLs must: private, loopback, link-local and reserved ' +
  'addresses are refused, at save time (400 naming the address) and again on every delivery.';
const notFound = { 404: { description: 'Your organization has no delivery destination with this id', schema: ErrorResponse } } as const;

export const fileDeliveryRoutes = {
  createDeliveryDestination: defineRoute({
    method: 'POST',
    path: '/api/v1/delivery-destinations',
    handler: 'file-deliveries/create',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: "Register where completed jobs' export files are delivered: an S3 bucket, an S3-compatible store, or an SFTP server",
    description:
      "Every completed job's export, in the organization's export format, is written to each ACTIVE destination as " +
      "`mapping-<mappingJobId>` and the format's extension (`.csv`, `.json`, `.jsonl`, `.xlsx`, `.gz` when compressed), retried " +
      '1, 5 and 30 minutes after a failure; three deliveries in a row that fail disable the destination (DELIVERY_DESTINATION_DISABLED). ' +
      "S3: create a role in your account with the answer's `s3.setup.trustPolicy` (our account, under the externalId issued " +
      'for this destination) and `s3.setup.permissionPolicy`. SFTP: the file is written as a hidden `.<name>.<random>.part` in the folder ' +
      'and renamed when whole (a transfer that breaks may leave that hidden file); the server must present the pinned host key. Passwords, keys and secret access keys are stored encrypted and ' +
      `never returned. ${hostRules} At most 10 destinations.`,
    body: {
      kind: 'json',
      schema: schemas.CreateDestinationRequest,
      example: {
        type: 'SFTP',
        name: 'Data team SFTP',
        host: 'sftp.partner.example',
        port: 22,
        username: 'hotel-mapping',
        password: 'correct horse battery staple',
        hostKeyFingerprint: 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s',
        folder: '/incoming/mapping',
      },
    },
    responses: {
      201: { description: 'The destination (for S3, with the policies to paste)', schema: schemas.DestinationView },
      400: { description: 'Invalid body, a host that may not be connected to, or the limit of 10 reached', schema: ErrorResponse },
      401: errors[401],
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite', secrets: 'seal', partnerRoles: 'describe' },
  }),
  listDeliveryDestinations: defineRoute({
    method: 'GET',
    path: '/api/v1/delivery-destinations',
    handler: 'file-deliveries/list',
    auth: 'required',
    tag: TAG,
    summary: "The organization's delivery destinations, newest first",
    description: 'At most 10, so one page: each with its status, failures in a row, and for S3 the policies to paste.',
    responses: { 200: { description: 'The destinations', schema: schemas.DestinationList }, 401: errors[401] },
    access: { table: 'read', partnerRoles: 'describe' },
  }),
  getDeliveryDestination: defineRoute({
    method: 'GET',
    path: '/api/v1/delivery-destinations/{id}',
    handler: 'file-deliveries/get',
    auth: 'required',
    tag: TAG,
    summary: 'One delivery destination',
    description: 'Where and how it delivers (never its credentials), its status, and why the service disabled it if it did.',
    params: schemas.DestinationIdParams,
    responses: {
      200: { description: 'The destination', schema: schemas.DestinationView },
      400: errors[400],
      401: errors[401],
      ...notFound,
    },
    access: { table: 'read', partnerRoles: 'describe' },
  }),
  updateDeliveryDestination: defineRoute({
    method: 'PATCH',
    path: '/api/v1/delivery-destinations/{id}',
    handler: 'file-deliveries/update',
    auth: 'required',
    tag: TAG,
    summary: 'Rename, pause or resume a destination, or replace its credentials or pinned host key',
    description:
      'status INACTIVE pauses deliveries (a retry due meanwhile ends FAILED with DESTINATION_INACTIVE); ACTIVE resumes them, also after ' +
      'the service DISABLED the destination, and counts its failures afresh. A new password replaces a private key and the other way round. ' +
      'To change where it delivers, register a new destination.',
    params: schemas.DestinationIdParams,
    body: {
      kind: 'json',
      schema: schemas.UpdateDestinationRequest,
      example: { status: 'ACTIVE', hostKeyFingerprint: 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s' },
    },
    responses: {
      200: { description: 'The destination as changed', schema: schemas.DestinationView },
      400: errors[400],
      401: errors[401],
      ...notFound,
      409: { description: 'Another request changed the destination meanwhile: read it again and retry', schema: ErrorResponse },
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite', secrets: 'seal', partnerRoles: 'describe' },
  }),
  deleteDeliveryDestination: defineRoute({
    method: 'DELETE',
    path: '/api/v1/delivery-destinations/{id}',
    handler: 'file-deliveries/delete',
    auth: 'required',
    tag: TAG,
    summary: 'Delete a destination, permanently',
    description:
      'Nothing more is delivered to it; a retry due meanwhile ends FAILED with DESTINATION_INACTIVE. Its history expires 30 days after its last delivery.',
    params: schemas.DestinationIdParams,
    responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], ...notFound },
    access: { table: 'readwrite' },
  }),
  testDeliveryDestination: defineRoute({
    method: 'POST',
    path: '/api/v1/delivery-destinations/{id}/test',
    handler: 'file-deliveries/test',
    auth: 'required',
    tag: TAG,
    summary: 'Test a destination: write a small file and remove it again',
    description:
      'Connects as a delivery would (host key, credentials, folder or bucket, permission to write and remove), writes ' +
      '`hotel-mapping-connection-test-<epoch ms>.txt` and removes it, and answers what happened with a reasonCode when it failed. ' +
      'It counts toward nothing, and works on a paused or disabled destination. At most 10 tests a minute per organization.',
    params: schemas.DestinationIdParams,
    responses: {
      200: { description: 'What the test met (succeeded false with the reason when it failed)', schema: schemas.TestResult },
      400: { description: 'An invalid id, or more than 10 tests in a minute (as the contract reports rate limits)', schema: ErrorResponse },
      401: errors[401],
      ...notFound,
    },
    access: { table: 'readwrite', secrets: 'open', partnerRoles: 'assume' },
  }),
  listFileDeliveries: defineRoute({
    method: 'GET',
    path: '/api/v1/delivery-destinations/{id}/deliveries',
    handler: 'file-deliveries/deliveries',
    auth: 'required',
    tag: TAG,
    summary: "A destination's deliveries with their attempts and failure reasons, newest first, kept 30 days",
    description:
      'One delivery per completed job; each attempt with its reasonCode when it failed. Pass nextCursor as cursor for the next page.',
    params: schemas.DestinationIdParams,
    query: schemas.FileDeliveryListQuery,
    responses: {
      200: { description: 'A page of deliveries', schema: schemas.FileDeliveryList },
      400: errors[400],
      401: errors[401],
      ...notFound,
    },
    access: { table: 'read' },
  }),
};
