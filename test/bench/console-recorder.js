// Runs in the console's page before its own scripts (bench:console): records when each view first
// shows (window.seen, in ms from navigation) and, for each key, when the first frame after the row
// changed was painted (window.keys: painted), and the first with all its evidence, the hotels'
// records read (complete).
const seen = {};
const keys = [];
Object.assign(window, { seen, keys });
addEventListener('keydown', (event) => keys.push({ key: event.key, at: event.timeStamp }), true);
let row = '';
/** The next frame: the key's row painted (the first time), and complete once its evidence is. */
const settle = (pending) =>
  requestAnimationFrame(() => {
    pending.painted ??= performance.now();
    const evidence = document.querySelector('.evidence');
    if (pending.complete === undefined && evidence && !evidence.textContent.includes('…')) pending.complete = performance.now();
  });
new MutationObserver(() => {
  for (const selector of ['#api-key', '.evidence', '.map .pin-partner'])
    if (!(selector in seen) && document.querySelector(selector)) seen[selector] = performance.now();
  const evidence = document.querySelector('.evidence');
  if (!('records' in seen) && evidence && !evidence.textContent.includes('…')) seen.records = performance.now();
  const shown = document.querySelector('.row-head p')?.textContent ?? '';
  const pending = keys.at(-1);
  if (shown !== row) {
    row = shown;
    if (pending && pending.painted === undefined) settle(pending);
  } else if (pending && pending.painted !== undefined && pending.complete === undefined) settle(pending);
}).observe(document, { childList: true, subtree: true, characterData: true });
