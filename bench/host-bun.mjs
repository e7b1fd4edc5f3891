// The host's own binary (its Bun) from the platform package opencode-ai installed.
import { existsSync } from "node:fs";

const platform = process.platform === "win32" ? "windows" : process.platform;
const exe = process.platform === "win32" ? "opencode.exe" : "opencode";

export const hostBun =
  [`opencode-${platform}-${process.arch}`, `opencode-${platform}-${process.arch}-baseline`]
    .map((name) => `node_modules/${name}/bin/${exe}`)
    .find((path) => existsSync(path)) ?? `node_modules/opencode-${platform}-${process.arch}/bin/${exe}`;
