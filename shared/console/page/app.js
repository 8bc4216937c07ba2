// @ts-check
/**
 * The console's start: sign in with an API key (checked against the API, kept for this tab only),
 * then a view per address: #/jobs, #/jobs/{id}, #/jobs/{id}/review, #/jobs/{id}/riskiest, #/jobs/{id}/row/{partnerHotelId}, #/book,
 * #/book/review, #/book/riskiest.
 */
import { api, session } from './api.js';
import { bookView } from './book.js';
import { h, show } from './dom.js';
import { jobsView, jobView } from './jobs.js';
import { clearNotice, notify } from './notice.js';
import { bookQueue, jobQueue, reviewView } from './review.js';

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const sections = /** @type {HTMLElement} */ (document.getElementById('sections'));
/** What stops the view shown (its timers and key handlers). */
let stop = () => {};

function route() {
  stop();
  stop = () => {};
  clearNotice();
  sections.hidden = !session.key;
  if (!session.key) return signIn();
  const path = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [section, id, queue, row] = path;
  if (section === 'jobs' && id && (queue === 'review' || queue === 'riskiest')) stop = reviewView(main, jobQueue(id, queue));
  else if (section === 'jobs' && id && queue === 'row' && row) stop = reviewView(main, jobQueue(id, 'row', row));
  else if (section === 'jobs' && id) stop = jobView(main, id);
  else if (section === 'book' && (id === 'review' || id === 'riskiest')) stop = reviewView(main, bookQueue(id));
  else if (section === 'book') stop = bookView(main);
  else stop = jobsView(main);
  main.focus();
}

function signIn() {
  const key = h('input', { type: 'password', id: 'api-key', autocomplete: 'off', required: true, spellcheck: 'false' });
  const problem = h('p', { id: 'sign-in-problem', class: 'problem' });
  const form = h(
    'form',
    { class: 'sign-in' },
    h('h1', {}, 'Sign in'),
    h('p', {}, 'With an API key of your organization. It is kept in this browser tab only, and forgotten when the tab closes.'),
    h('label', { for: 'api-key' }, 'API key'),
    key,
    h('button', { type: 'submit' }, 'Sign in'),
    problem,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api('/mapping', { query: { limit: 1 }, key: key.value.trim() });
      session.signIn(key.value.trim());
      if (!location.hash || location.hash === '#/') location.hash = '#/jobs';
      else route();
    } catch (error) {
      show(problem, `Not signed in: ${/** @type {Error} */ (error).message}`);
      key.focus();
    }
  });
  show(main, form);
  key.focus();
}

document.getElementById('sign-out')?.addEventListener('click', () => {
  session.signOut();
  location.hash = '#/';
  route();
});
window.addEventListener('signed-out', () => {
  session.signOut();
  route();
  notify('The API no longer accepts the key: sign in again.');
});
window.addEventListener('hashchange', route);
route();
