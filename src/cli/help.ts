import { PERMISSION_MODES } from "../app/args.ts";

export const HELP = `rein: a coding agent in your terminal

Usage:
  rein ["PROMPT"]                       interactive session (needs a terminal), starting with PROMPT
  rein -p "PROMPT" [flags]              print mode: run to completion, print, exit
  git diff | rein -p "review this"      piped stdin is added to the prompt as context
  rein -p - < prompt.txt                the prompt is stdin
  rein -c -p --compact ["FOCUS"]        compact the latest session here (or -r ID) and exit
  rein sessions list | show ID | export ID [--format md|json] | rm ID
  rein sessions trash | restore ID | prune [--older-than D] [--yes] | fork ID [--at N]
  rein tools list | init [user|project]
  rein mcp list | get NAME | add NAME [--scope user|project] (-- COMMAND ARGS... | --url URL) | remove NAME
  rein mcp login NAME | logout NAME     OAuth login of a remote server (prints the URL to open)
  rein skills list [--json]             skills and commands, where each came from, load errors
  rein plugin list [--json]             plugins, where each came from, what each brings, load errors
  rein plugin install PATH|GIT_URL|NAME@MARKETPLACE [--yes] | enable ID | disable ID | remove ID | update [ID] | import claude
  rein plugin marketplace add PATH|GIT_URL | list | remove NAME   (docs/plugins.md)
  rein memory list | show NAME | edit NAME | rm NAME   the memories sessions read (docs/memory.md)
  rein undo [-r ID | -c] [--turns N] [--code | --conversation] [--force]   undo the last turn(s); rein redo
  rein checkpoints list | diff N | restore N [--force]   the workspace as it was before each turn
  rein teams list | show NAME                              teams, their members and shared task list
  rein hooks list | test EVENT [--tool NAME] [--input JSON]   hooks, their sources, a dry run
  rein permissions explain [--json] [flags] -- 'COMMAND LINE'
  rein doctor
  rein models                           the providers and models you can use (-m provider/model)
  rein --serve [--port N] [--hostname H]   the same sessions over HTTP + SSE (token required)
  rein acp [flags]                      an Agent Client Protocol agent on stdio (editors)
  rein --version

Flags:
  -c, --continue              continue the latest session in this directory
  -r, --resume ID             resume a session (id or unique prefix)
  -m, --model NAME            model: provider/model (openai/gpt-5.2, ollama/qwen3-coder), an
                              Anthropic name (default claude-sonnet-5-5), or sonnet | opus |
                              haiku | fable (the family's newest) | inherit
      --max-turns N           stop after N model turns (exit 4)
      --max-cost USD          start no model turn once a run has cost USD (exit 4)
      --cwd DIR               work in DIR
      --permission-mode MODE  ${PERMISSION_MODES.join(" | ")}, or Claude Code's acceptEdits |
                              bypassPermissions (= auto) | dontAsk (refuse what no rule allows)
      --agent NAME            run as an agent: build (default), plan (= --permission-mode plan)
                              or one from .rein/agents/, .claude/agents/, .opencode/agent(s)/
      --allow RULE            allow, e.g. --allow 'bash(npm test *)' or --allow edit
      --deny RULE             deny, e.g. --deny 'bash(git push *)'
      --ask RULE              always ask
      --trust                 accept the project's own tools and config that loosens permissions
      --worktree NAME         run in a git worktree of the repository on branch rein/NAME (kept when changed)
      --sandbox               run every bash command in the kernel sandbox (bubblewrap)
  Claude Code's flags, with its meaning:
      --allowedTools, --allowed-tools "Bash(git diff:*) Edit"   allow, in Claude's rule syntax
      --disallowedTools, --disallowed-tools RULES              deny, in Claude's rule syntax
      --tools "Read,Grep"     only these built-in tools ("" none, "default" all)
      --system-prompt TEXT, --system-prompt-file FILE          instead of rein's system prompt
      --append-system-prompt TEXT, --append-system-prompt-file FILE   added to it
      --settings FILE|JSON    one more Claude Code settings file (above the project's)
      --setting-sources LIST  which of user, project, local settings files to read
      --mcp-config FILE|JSON  MCP servers ({"mcpServers": {...}}); --strict-mcp-config: only these
      --add-dir DIR           a folder outside the project that counts as the workspace
      --session-id UUID       the new session's id; --fork-session: -c/-r go on in a copy
      --max-budget-usd USD    = --max-cost; --dangerously-skip-permissions = --permission-mode auto
      --fallback-model NAME   a turn its model cannot serve (overloaded) goes to NAME
      --agents JSON           agents by name: {"name": {"description", "prompt", "tools", "model"}}
  print mode:
      --json-schema SCHEMA    the final answer must be JSON valid against SCHEMA: structured_output
      --output-format FMT     text | json | stream-json | claude-stream-json | claude-json
      --input-format stream-json   user turns as JSON lines on stdin (Claude Code's shape)
      --include-partial-messages   claude-stream-json: also the model's stream (stream_event)
      --verbose               accepted for Claude Code's command lines; changes nothing
      --on-ask POLICY         deny (default: refuse and tell the model) | fail (exit 3)
      --compact               with -c or -r: summarise the whole session now, keeping
                              FOCUS (the argument, instead of a prompt) above all; runs no
                              prompt, reads no stdin; exit 0 also when nothing is worth compacting

In the terminal: /help lists the slash commands; Enter sends, Alt-Enter or Ctrl-J adds a line,
Ctrl-C or Escape stops a turn (Ctrl-C twice at an empty prompt: exit), Ctrl-D exits, Ctrl-Z suspends.

Exit codes: 0 success, 1 run failed, 2 usage or configuration error, 3 stopped for a
permission, 4 turn limit or cost budget reached, 5 stopped by a hook in rein's config
(continue: false), 130 interrupted (SIGINT; 143 SIGTERM, 129 SIGHUP).
`;
