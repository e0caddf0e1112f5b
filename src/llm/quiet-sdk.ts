// The Anthropic SDK (1.14) calls console.warn from `messages.create` for a model it lists as
// deprecated (claude-opus-4-5, claude-sonnet-4-5) or for `thinking.type=enabled` on some models: two
// raw lines on stderr every turn, and in the terminal they break the screen. The warning is written
// synchronously, before `create` returns its promise, so muting console.warn for that one call mutes
// only the SDK. rein drops the text: the model list (`rein models`) is where a person picks a model.
export function withoutSdkWarnings<T>(call: () => T): T {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return call();
  } finally {
    console.warn = warn;
  }
}
