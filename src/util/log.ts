// Plugin log lines: on OpenCode 1.x through the host's own log (client.app.log), never to stdout.

type LogLevel = "debug" | "info" | "warn" | "error";
export type Log = (level: LogLevel, message: string) => void;

interface AppLogClient {
  app: { log(options: { body: { service: string; level: LogLevel; message: string } }): Promise<unknown> };
}

export function hostLog(client: AppLogClient): Log {
  return (level, message) => {
    client.app.log({ body: { service: "opencode-engram", level, message } }).catch(() => {
      // Logging must never break a tool or hook.
    });
  };
}

/**
 * OpenCode 2 gives a plugin no log API (its setup context has none: packages/plugin/src/promise/
 * adapter.ts@07bc181c): warnings and errors go to standard error, marked as ours; the rest is dropped.
 */
export function stderrLog(write: (line: string) => void = (line) => process.stderr.write(line)): Log {
  return (level, message) => {
    if (level === "warn" || level === "error") write(`[opencode-engram] ${level}: ${message}\n`);
  };
}
