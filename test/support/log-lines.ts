/**
 * The JSON lines (log lines and metrics' EMF lines) written to stdout and stderr while `work`
 * runs, at the given LOG_LEVEL; both streams are restored, and the level, afterwards.
 */
export async function logLinesDuring(work: () => Promise<unknown>, level: string): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const streams = [process.stdout, process.stderr];
  const writes = streams.map((stream) => stream.write.bind(stream));
  for (const stream of streams) {
    stream.write = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
  }
  const previous = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = level;
  try {
    await work();
  } finally {
    streams.forEach((stream, index) => (stream.write = writes[index]!));
    if (previous === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = previous;
  }
  return lines
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
