// Matchers as Claude Code evaluates them: empty, "*" or omitted match all; only letters, digits,
// `_`, `-`, spaces, `|` and `,` is an exact list; anything else an unanchored regular expression.

const LITERAL = /^[A-Za-z0-9_ ,|-]+$/;

/**
 * Whether `matcher` matches any of `values` (a tool is matched by all its names). `canonical` maps a
 * name of an exact list first: for tools, rein's name of a tool named in either vocabulary.
 */
export function matches(matcher: string | undefined, values: readonly string[], canonical: (name: string) => string = (name) => name): boolean {
  const pattern = matcher?.trim() ?? "";
  if (pattern === "" || pattern === "*") return true;
  if (LITERAL.test(pattern)) {
    const names = pattern.split(/[|,]/).map((name) => name.trim()).filter(Boolean);
    return names.some((name) => {
      const wanted = canonical(name);
      return values.some((value) => value === name || canonical(value) === wanted);
    });
  }
  const regex = compile(pattern);
  return regex !== undefined && values.some((value) => regex.test(value));
}

const compiled = new Map<string, RegExp | undefined>();

/** A matcher that is not a valid regular expression matches nothing (sources warn of it when loading). */
function compile(pattern: string): RegExp | undefined {
  if (compiled.has(pattern)) return compiled.get(pattern);
  let regex: RegExp | undefined;
  try {
    regex = new RegExp(pattern);
  } catch {
    regex = undefined;
  }
  compiled.set(pattern, regex);
  return regex;
}

/** Why a matcher can never match, or undefined. */
export function matcherProblem(matcher: string | undefined): string | undefined {
  const pattern = matcher?.trim() ?? "";
  if (pattern === "" || pattern === "*" || LITERAL.test(pattern)) return undefined;
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `matcher ${JSON.stringify(matcher)} is not a valid regular expression (${(error as Error).message}): it matches nothing`;
  }
}
