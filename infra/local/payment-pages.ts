/**
 * The local payment provider's "hosted" pages, served by the local runtime beside the API when no
 * Stripe key is configured. A person completes or cancels a checkout and manages a subscription
 * here; each completion is a Stripe-shaped event, signed by the Stripe SDK, posted to the API's
 * real webhook endpoint, so local purchases take the path real Stripe events take.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  billingRoutes,
  CREDIT_QUANTITY_RULE,
  creditPriceCents,
  CREDITS,
  formatEuros,
  LOCAL_PAYMENT_PAGES,
  PLAN_OFFERS,
  parseCreditQuantity,
  paymentsOf,
  type CheckoutCompletion,
  type LocalCheckout,
  type LocalPaymentProvider,
  type SignedDelivery,
} from '../../shared/billing';
import { PLAN_LIMITS } from '../../shared/organizations';
import type { Runtime } from '../../shared/platform/runtime';
import type { LocalPage } from './server';

const PORTAL_ACTIONS = ['cancel_at_period_end', 'resume', 'cancel_now'] as const;
type PortalAction = (typeof PORTAL_ACTIONS)[number];

/** The pages, or none when a real payment provider is configured. */
export function localPaymentPages(runtime: Runtime): LocalPage[] {
  const provider = paymentsOf(runtime).local;
  return provider ? [(request, response, url) => servePage(provider, request, response, url)] : [];
}

async function servePage(provider: LocalPaymentProvider, request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
  if (!url.pathname.startsWith(`${LOCAL_PAYMENT_PAGES}/`)) return false;
  const [kind, id, action] = url.pathname.slice(LOCAL_PAYMENT_PAGES.length + 1).split('/');
  const method = request.method ?? 'GET';
  if (kind === 'checkout' && id) {
    const checkout = await provider.checkout(id);
    if (!checkout) return html(response, 404, page('Checkout not found', '<p>This checkout does not exist.</p>'));
    if (method === 'GET' && !action) return html(response, 200, checkoutPage(checkout));
    if (method === 'POST' && action === 'cancel') {
      await provider.cancelCheckout(id);
      return redirect(response, checkout.request.cancelUrl);
    }
    if (method === 'POST' && action === 'complete') {
      if (checkout.status !== 'open') return html(response, 409, page('Checkout closed', `<p>This checkout is ${checkout.status}.</p>`));
      // As the API answers a body: the credits page's one field is required, and nothing else is taken.
      const fields = new URLSearchParams(await readBody(request));
      const expected = checkout.request.mode === 'payment' ? ['millions'] : [];
      const unknown = [...fields.keys()].find((name) => !expected.includes(name));
      if (unknown !== undefined) {
        return html(
          response,
          400,
          page(
            'Unknown field',
            `<p>Unknown field "${escape(unknown)}" in the form. Nothing was charged; go back and pay from the page.</p>`,
          ),
        );
      }
      let millions: number | undefined;
      if (checkout.request.mode === 'payment') {
        millions = parseCreditQuantity(fields.get('millions') ?? '');
        if (millions === undefined) return refusal(response, 'invalid_quantity');
      }
      const completion = await provider.completeCheckout(id, millions);
      if ('refused' in completion) return refusal(response, completion.refused);
      await deliver(request, completion.completed);
      return redirect(response, checkout.request.successUrl);
    }
  }
  if (kind === 'portal' && id) {
    const portal = await provider.portal(id);
    if (!portal) return html(response, 404, page('Portal session not found', '<p>This portal session does not exist.</p>'));
    if (method === 'GET' && !action) return html(response, 200, portalPage(id, portal));
    if (method === 'POST' && portal.subscription && (PORTAL_ACTIONS as readonly string[]).includes(action ?? '')) {
      await deliver(request, await provider.changeSubscription(portal.subscription.id, action as PortalAction));
      return redirect(response, `${LOCAL_PAYMENT_PAGES}/portal/${id}`);
    }
  }
  return html(response, 404, page('Not found', '<p>No such payment page.</p>'));
}

/** Why a checkout was not paid; nothing was charged and the checkout is as it was. */
function refusal(response: ServerResponse, reason: Extract<CheckoutCompletion, { refused: unknown }>['refused']): true {
  switch (reason) {
    case 'invalid_quantity':
      return html(
        response,
        400,
        page('Invalid quantity', `<p>${escape(CREDIT_QUANTITY_RULE)} Nothing was charged; go back and correct it.</p>`),
      );
    case 'already_subscribed':
      return html(
        response,
        409,
        page(
          'Already subscribed',
          '<p>This organization already has a live subscription, and a second one would be billed beside it. ' +
            'Change plans or cancel in the billing portal (POST /api/v1/billing/portal). Nothing was charged.</p>',
        ),
      );
    case 'not_open':
      return html(response, 409, page('Checkout closed', '<p>This checkout is no longer open.</p>'));
  }
}

/**
 * Posts the signed event to this server's own webhook endpoint, as Stripe would: at the address
 * the request came in on, never at the Host header it names (a forged one would get the event).
 */
async function deliver(request: IncomingMessage, delivery: SignedDelivery): Promise<void> {
  const { localAddress = '127.0.0.1', localPort } = request.socket;
  const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  const response = await fetch(`http://${host}:${localPort}${billingRoutes.stripeWebhook.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
    body: delivery.payload,
  });
  if (!response.ok) throw new Error(`The webhook endpoint answered ${response.status}: ${await response.text()}`);
}

function checkoutPage(checkout: LocalCheckout): string {
  const { request } = checkout;
  const base = `${LOCAL_PAYMENT_PAGES}/checkout/${checkout.id}`;
  const what =
    request.mode === 'subscription'
      ? `<p>Subscribe to <b>${escape(PLAN_LIMITS[request.planType].displayName)}</b> (${escape(request.planType)}) for
         <b>${formatEuros(PLAN_OFFERS[request.planType].monthlyPriceCents)} a month</b>. It gives:</p>
         <ul>${PLAN_OFFERS[request.planType].features.map((feature) => `<li>${escape(feature)}</li>`).join('')}</ul>`
      : `<p>Buy mapping credits at ${formatEuros(CREDITS.centsPerMillion)} per million (at least ${request.minimumQuantity} million,
         ${formatEuros(creditPriceCents(request.minimumQuantity))}).</p>
         <label>Millions of credits (${request.minimumQuantity} to ${request.maximumQuantity.toLocaleString('en-US')})
         <input type="number" name="millions" min="${request.minimumQuantity}" max="${request.maximumQuantity}" step="1" value="${request.minimumQuantity}" form="pay" required></label>`;
  const body =
    checkout.status === 'open'
      ? `${what}
         <form id="pay" method="post" action="${base}/complete"><button type="submit">Pay (local, no money moves)</button></form>
         <form method="post" action="${base}/cancel"><button type="submit">Cancel</button></form>`
      : `<p>This checkout is ${checkout.status}.</p>`;
  return page('Local checkout', body);
}

function portalPage(id: string, portal: NonNullable<Awaited<ReturnType<LocalPaymentProvider['portal']>>>): string {
  const base = `${LOCAL_PAYMENT_PAGES}/portal/${id}`;
  const action = (name: PortalAction, label: string) =>
    `<form method="post" action="${base}/${name}"><button type="submit">${label}</button></form>`;
  const subscription = portal.subscription;
  const body = subscription
    ? `<p>Subscription <code>${escape(subscription.id)}</code>: ${escape(subscription.planType)}, ${escape(subscription.status)},
         period ends ${escape(subscription.currentPeriodEnd)}${subscription.cancelAtPeriodEnd ? ' (cancels then)' : ''}.</p>
       ${subscription.cancelAtPeriodEnd ? action('resume', 'Keep the subscription') : action('cancel_at_period_end', 'Cancel at period end')}
       ${action('cancel_now', 'Cancel now')}`
    : '<p>No active subscription.</p>';
  return page('Local billing portal', `${body}<p><a href="${escape(portal.returnUrl)}">Return</a></p>`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>
<body><h1>${escape(title)}</h1><p><i>Local payment provider: nothing is charged.</i></p>${body}</body></html>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function html(response: ServerResponse, status: number, body: string): true {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(body);
  return true;
}

function redirect(response: ServerResponse, location: string): true {
  response.writeHead(303, { location });
  response.end();
  return true;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
