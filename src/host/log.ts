// Plugin log lines go through the host's own log (client.app.log), never to stdout.

export type LogLevel = "debug" | "info" | "warn" | "error";
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
