/** The unit tests' global setup (jest.unit.config.js): quiet logs, and no stand-in to start. */
export default function globalSetup() {
  process.env.LOG_LEVEL ??= 'silent';
}
