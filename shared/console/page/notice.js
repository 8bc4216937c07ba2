// @ts-check
/** Messages a person must see (an API refusal, a decision not recorded): the page's one alert region. */
import { h, show } from './dom.js';

/** @param {string} message */
export function notify(message) {
  const notice = document.getElementById('notice');
  if (!notice) return;
  show(notice, h('p', {}, message), h('button', { type: 'button', onclick: () => show(notice) }, 'Dismiss'));
}

export function clearNotice() {
  const notice = document.getElementById('notice');
  if (notice) show(notice);
}
