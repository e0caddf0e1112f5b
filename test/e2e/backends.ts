// The print-mode contract runs against each API family: a backend is a fake server, the
// environment and flags that point rein at it, and a way to read what it was sent.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startFakeOpenAI, type ChatDialect, type ChatStep, type FakeChatServer } from "../fake/openai-server.ts";
import type { FakeStep, RecordedRequest } from "../fake/server.ts";
import type { World } from "./harness.ts";

/** The steps both fakes script alike. */
export type CommonStep =
  | { reply: ({ type: "text"; text: string } | { type: "tool_use"; name: string; input: unknown; id?: string })[] }
  | { error: number; retryAfter?: number; body?: unknown }
  | { cut: { type: "text"; text: string }[] }
  | { malformed: true }
  | { hang: true };

export type Backend = {
  name: string;
  /** flags that choose the backend's model */
  args: string[];
  env: Record<string, string | undefined>;
  script(...steps: CommonStep[]): void;
  requests(): RecordedRequest[];
  /** the text of the last user message of a request, whatever the API's shape */
  lastUserText(request: RecordedRequest): string;
  /** the tool results a request carries, as text */
  toolResults(request: RecordedRequest): string[];
  problems(): string[];
  close(): Promise<void>;
};

export const BACKENDS = ["anthropic", "openai", "ollama"] as const;
export type BackendName = (typeof BACKENDS)[number];

export async function backend(w: World, name: BackendName): Promise<Backend> {
  if (name === "anthropic") return anthropicBackend(w);
  const dialect: ChatDialect = name === "ollama" ? "ollama" : "openai";
  const fake = await startFakeOpenAI({ dialect });
  if (name === "ollama") {
    // A local preset moved to the fake's port through the user config, as a user would.
    await writeFile(join(w.configDir, "config.json"), JSON.stringify({ providers: { ollama: { baseURL: fake.url } } }));
    return chatBackend(fake, "ollama", ["-m", "ollama/qwen3-coder"], {});
  }
  return chatBackend(fake, "openai", ["-m", "openai/gpt-5.2"], { OPENAI_API_KEY: "sk-openai-test", OPENAI_BASE_URL: fake.url });
}

function anthropicBackend(w: World): Backend {
  return {
    name: "anthropic",
    args: [],
    env: {},
    script: (...steps) => w.fake.script(...(steps as FakeStep[])),
    requests: () => w.fake.requests,
    lastUserText: (r) => {
      const users = (r.body.messages as { role: string; content: { type: string; text?: string }[] }[]).filter((m) => m.role === "user" && m.content.some((b) => b.type === "text"));
      return users.at(-1)?.content.find((b) => b.type === "text")?.text ?? "";
    },
    toolResults: (r) =>
      (r.body.messages as { content: { type: string; content?: unknown }[] }[]).flatMap((m) =>
        m.content.filter((b) => b.type === "tool_result").map((b) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content))),
      ),
    problems: () => [],
    close: async () => {},
  };
}

function chatBackend(fake: FakeChatServer, name: string, args: string[], env: Record<string, string>): Backend {
  return {
    name,
    args,
    env,
    script: (...steps) => fake.script(...(steps as ChatStep[])),
    requests: () => fake.requests,
    lastUserText: (r) => {
      const user = (r.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1);
      return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content ?? "");
    },
    toolResults: (r) => (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === "tool").map((m) => m.content),
    problems: () => fake.problems.flat(),
    close: () => fake.close(),
  };
}
