// typescript-eslint needs TypeScript 5's compiler API; the project's own `typescript` is 7, which
// ships none, and npm hoists typescript-eslint's helpers beside it. Preloaded by `npm run lint`:
// every require of 'typescript' gets this package's TypeScript 5.
const Module = require('node:module');

const typescript5 = require.resolve('typescript', { paths: [__dirname] });
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, request === 'typescript' ? typescript5 : request, ...rest);
};
