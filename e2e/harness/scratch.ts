// The scratch world a host runs in: HOME and XDG folders under one temp root, and a project that
// is a fresh git repository with one commit.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function writeFiles(base: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = join(base, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The environment of a host process whose HOME and XDG folders live under `root`. */
export function hostEnv(root: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Drop the caller's opencode settings (tests may themselves run inside opencode).
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCODE")) env[k] = v;
  return {
    ...env,
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CACHE_HOME: join(root, "cache"),
    XDG_STATE_HOME: join(root, "state"),
    // npm's cache lives under HOME; keep one across runs so the host's plugin installs are fast.
    npm_config_cache: join(tmpdir(), "opencode-engram-e2e-npm-cache"),
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    ...extra,
  };
}

export function initProject(dir: string, files: Record<string, string>): void {
  writeFiles(dir, files);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
}
