/** Ends the run with one plain line, "tests: N passed, N failed", that any CI log reader understands. */
export default class ClosingLine {
  onRunComplete(_contexts, results) {
    process.stdout.write(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed\n`);
  }
}
