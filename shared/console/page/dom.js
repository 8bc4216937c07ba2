// @ts-check
/**
 * Elements built by code, never from markup: every child given as a string becomes a text node, so
 * a hotel named `<img src=x onerror=…>` shows as those characters and runs nothing.
 */

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Child | Child[] | Child[][]} Children */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | ((event: any) => void) | undefined>} [props]
 *   `class`, attributes, and `on<event>` listeners; false or undefined leaves an attribute out.
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  return /** @type {HTMLElementTagNameMap[K]} */ (build(document.createElement(tag), props, children));
}

/**
 * A data table a narrow screen scrolls within, never the page with it (WCAG's reflow spares data
 * tables); focusable, so that keys scroll it.
 * @param {string} label @param {HTMLTableElement} table
 */
export function wide(label, table) {
  return h('div', { class: 'wide', role: 'region', 'aria-label': label, tabindex: 0 }, table);
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag
 * @param {Record<string, string | number | boolean | undefined>} [props]
 * @param {...Children} children
 * @returns {SVGElement}
 */
export function svg(tag, props = {}, ...children) {
  return /** @type {SVGElement} */ (build(document.createElementNS(SVG, tag), props, children));
}

/**
 * @param {Element} element
 * @param {Record<string, unknown>} props
 * @param {Children[]} children
 */
function build(element, props, children) {
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, /** @type {Child[]} */ (children.flat(2)));
  return element;
}

/** @param {Element} element @param {Child[]} children */
function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. @param {Element} element @param {...Children} children */
export function show(element, ...children) {
  element.replaceChildren();
  append(element, /** @type {Child[]} */ (children.flat(2)));
}

/** @param {number} value @param {number} [digits] */
export const decimal = (value, digits = 2) => value.toFixed(digits);

/** @param {number | null | undefined} meters */
export function distance(meters) {
  if (meters === null || meters === undefined) return '–';
  return meters < 1000 ? `${Math.round(meters)} m` : `${(meters / 1000).toFixed(meters < 10_000 ? 1 : 0)} km`;
}
