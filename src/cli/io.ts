// Where the command line writes: results to stdout, messages and the progress line to stderr.
// Colour and the progress line only on a terminal (and never with --json or NO_COLOR).

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Dims, bolds or colours text when stdout is a terminal that wants colour. */
  style(kind: "dim" | "bold" | "ok" | "warn" | "fail" | "accent", text: string): string;
  /** A one-line status on stderr, replaced by the next one; undefined clears it. */
  progress(line: string | undefined): void;
}

const PROGRESS_DELAY_MS = 300;

const CODES = { dim: [2, 22], bold: [1, 22], ok: [32, 39], warn: [33, 39], fail: [31, 39], accent: [36, 39] } as const;

export interface IoOptions {
  json: boolean;
  noColor: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
}

export function terminalIo(options: IoOptions): Io {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const color = stdout.isTTY === true && !options.json && !options.noColor && !env.NO_COLOR;
  const showProgress = stderr.isTTY === true && !options.json;
  // Only scans that take a while get a progress line: a quick answer should not flicker.
  const progressAfter = Date.now() + PROGRESS_DELAY_MS;
  let shown = false;
  const clear = () => {
    if (shown) stderr.write("\r\x1b[2K");
    shown = false;
  };
  return {
    out(line) {
      clear();
      stdout.write(`${line}\n`);
    },
    err(line) {
      clear();
      stderr.write(`${line}\n`);
    },
    style(kind, text) {
      if (!color) return text;
      const [on, off] = CODES[kind];
      return `\x1b[${on}m${text}\x1b[${off}m`;
    },
    progress(line) {
      if (!showProgress) return;
      clear();
      if (line === undefined || Date.now() < progressAfter) return;
      stderr.write(line.slice(0, Math.max(20, (stderr.columns || 80) - 1)));
      shown = true;
    },
  };
}
