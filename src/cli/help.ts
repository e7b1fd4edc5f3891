// --help texts; docs/cli.md says the same at more length.

const COMMON_FLAGS = `  --json            one line of JSON on stdout (the plugin's answer shapes), no colour
  --data-dir DIR    OpenCode's data folder (default: $XDG_DATA_HOME/opencode or ~/.local/share/opencode)
  --no-color        no colour even on a terminal (also NO_COLOR=1)
  -h, --help        this help`;

const EXIT_CODES = `Exit codes: 0 found / fine, 1 nothing found (doctor: a check failed), 2 usage error,
3 store missing or unreadable, 4 id not in the store, 5 unexpected failure.`;

export const HELP: Record<string, string> = {
  search: `opencode-engram search <query> [options]

Finds messages by what they say, ranked as the plugin's history_search ranks them.

  --scope S         session | project (default) | global (every project in the store)
  --session ID      search one session (ses_…); implies --scope session
  --project DIR     the project (default: the git worktree holding the current directory)
  --literal         exact substring, ignoring case and accents
  --regex           JavaScript regular expression, case-insensitive
  --alt A           another phrasing of the same need, up to 3 times: each is ranked on its own and
                    the rankings fused, as history_search's alternatives; best in the history's own
                    words (the error text, the command, an identifier, a file name)
  --limit N         most messages to show (default 10, at most search.max_message_limit)
  --offset N        start N results into the ranking (0 to 1000): the next page, as "… more" says
${COMMON_FLAGS}

${EXIT_CODES}`,
  sessions: `opencode-engram sessions [options]

The project's sessions, newest first; with --query, the matching ones, best first.

  --project DIR     the project (default: the git worktree holding the current directory)
  --query Q         rank sessions by these words
  --alt A           with --query: another phrasing of it, up to 3 times (the rankings fused)
  --limit N         most sessions (default 20)
  --offset N        start N sessions into the ranking or listing (0 to 1000)
  --children        include subagent sessions
  --global          every project's sessions, each with its directory
${COMMON_FLAGS}

${EXIT_CODES}`,
  show: `opencode-engram show <msg_…|ses_…> [--turns] [--part PRT]

A message in full, section by section; or a session's turns (request, answer, tools, files).

  --turns           with a message id: its session's turns instead of the message
  --part PRT        with a message id: that part's whole text (a tool call's input and
                    output, a reasoning, a text), uncut; export names it where it folds one
${COMMON_FLAGS}

${EXIT_CODES}`,
  export: `opencode-engram export <ses_…> [--json] [-o FILE]

A whole session: a header (title, id, project directory, times), then every turn in order with
the user's words and the answers as written. Tool calls (input and output), reasoning and text
the host added are folded to a few lines each, saying how many characters were left out and the
show --part command that prints them. Compaction summaries, subtasks and subagent sessions are
marked. Tool inputs and outputs follow the show_tool_input / show_tool_output settings.

  --json            the document \`opencode export\` writes and \`opencode import <file>\` reads
                    back ({info, messages}), the store's text unchanged, on one line
  -o, --output FILE write to FILE instead of stdout (whole or not at all; its folder must exist)
  --data-dir DIR    OpenCode's data folder (default: $XDG_DATA_HOME/opencode or ~/.local/share/opencode)
  --no-color        accepted; export writes no colour
  -h, --help        this help

${EXIT_CODES}`,
  doctor: `opencode-engram doctor [--project DIR]

Where OpenCode's store is and whether it can be read, which OpenCode version wrote it, which
opencode.json files list the plugin and in what form, whether opencode-engram.jsonc files parse
and which keys are invalid, how big the history is and what a cold search costs (measured).

  --project DIR     the project to check (default: the current directory's git worktree)
${COMMON_FLAGS}

Exit codes: 0 every check passed (warnings allowed), 1 a check failed, 2 usage error, 5 unexpected failure.`,
  reindex: `opencode-engram reindex

Deletes the store's projection (the plugin's cache for global and large-project searches, in
$XDG_CACHE_HOME/opencode-engram/, default ~/.cache/opencode-engram/) and builds it again now.
The plugin builds and updates it in the background on its own; nothing is written to OpenCode's store.

${COMMON_FLAGS}

${EXIT_CODES}`,
};

export const USAGE = `opencode-engram: search and read OpenCode's stored sessions from the terminal (read-only)

  opencode-engram search <query> [--scope session|project|global] [--session ID] [--project DIR]
                                 [--literal] [--regex] [--alt A]... [--limit N] [--offset N]
  opencode-engram sessions [--project DIR] [--query Q [--alt A]...] [--limit N] [--offset N]
                           [--children] [--global]
  opencode-engram show <message_id|session_id> [--turns] [--part PRT]
  opencode-engram export <session_id> [--json] [-o FILE]
  opencode-engram doctor [--project DIR]
  opencode-engram reindex

Every command takes --json, --data-dir DIR, --no-color and --help.`;
