// Runs in the console's page before its own scripts (bench:console): records when each view first
// shows (window.seen, in ms from navigation) and, for each key, when the first frame after the row
// changed was painted (window.keys).
const seen = {};
const keys = [];
Object.assign(window, { seen, keys });
addEventListener('keydown', (event) => keys.push({ key: event.key, at: event.timeStamp }), true);
let row = '';
new MutationObserver(() => {
  for (const selector of ['#api-key', '.evidence', '.map .pin-partner']) if (!(selector in seen) && document.querySelector(selector)) seen[selector] = performance.now();
  const evidence = document.querySelector('.evidence');
  if (!('records' in seen) && evidence && !evidence.textContent.includes('…')) seen.records = performance.now();
  const shown = document.querySelector('.row-head p')?.textContent ?? '';
  if (shown !== row) {
    row = shown;
    const pending = keys.at(-1);
    if (pending && pending.painted === undefined) requestAnimationFrame(() => (pending.painted = performance.now()));
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
