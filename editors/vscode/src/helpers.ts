// Pure helpers of the irilint extension: nothing here imports `vscode`, so
// the unit tests run them under plain Node.

import * as path from 'path';

/** The configuration section of the extension and the server. */
export const SECTION = 'irilint';

/** VS Code languageIds that irilint checks (activation and document selector). */
export const LANGUAGE_IDS: readonly string[] = [
  'markdown',
  'html',
  'xml',
  'plaintext',
  'restructuredtext',
  'python',
  'javascript',
  'javascriptreact',
  'typescript',
  'typescriptreact',
  'json',
  'jsonc',
  'yaml',
  'toml',
  'turtle',
];

/** The URI schemes of the documents sent to the server. */
export const SCHEMES: readonly string[] = ['file', 'untitled'];

/** Configuration files the server reads; watched for changes. */
export const CONFIG_FILE_GLOB = '**/{pyproject.toml,irilint.toml,.irilint.toml}';

export interface DocumentFilter {
  scheme: string;
  language: string;
}

/** One filter per (scheme, languageId). */
export function documentSelector(): DocumentFilter[] {
  const selector: DocumentFilter[] = [];
  for (const scheme of SCHEMES) {
    for (const language of LANGUAGE_IDS) {
      selector.push({ scheme, language });
    }
  }
  return selector;
}

/** `onLanguage:` activation events for {@link LANGUAGE_IDS}. */
export function activationEvents(): string[] {
  return LANGUAGE_IDS.map((id) => `onLanguage:${id}`);
}

/**
 * VS Code setting (camelCase, under `irilint.`) -> the server's
 * configuration key (kebab-case, as in `[tool.irilint]`).
 */
export const SETTING_KEYS: Readonly<Record<string, string>> = {
  select: 'select',
  ignore: 'ignore',
  extendSelect: 'extend-select',
  extendIgnore: 'extend-ignore',
  severity: 'severity',
  perFileIgnores: 'per-file-ignores',
  include: 'include',
  exclude: 'exclude',
  extendExclude: 'extend-exclude',
  extensions: 'extensions',
  protectedDomains: 'protected-domains',
  wellKnownDomains: 'well-known-domains',
  allowedScripts: 'allowed-scripts',
  maxFileSize: 'max-file-size',
  inlayHints: 'inlay-hints',
  debounce: 'debounce',
};

/** `extendSelect` -> `extend-select`. */
export function camelToKebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/**
 * The server's settings from the extension's `irilint` section: known keys
 * only, renamed to kebab-case; unset (`null`/`undefined`) values are left
 * out so that the project's configuration file keeps them. Keys already in
 * kebab-case are accepted too. `server` and `trace` (the extension's own)
 * are never sent.
 */
export function toServerSettings(section: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (section === null || typeof section !== 'object' || Array.isArray(section)) {
    return out;
  }
  const known = new Set(Object.values(SETTING_KEYS));
  for (const [key, value] of Object.entries(section as Record<string, unknown>)) {
    if (value === null || value === undefined || typeof value === 'function') {
      continue;
    }
    const target = SETTING_KEYS[key] ?? (known.has(key) ? key : undefined);
    if (target === undefined) {
      continue;
    }
    out[target] = plain(value);
  }
  return out;
}

/** A JSON copy (VS Code's configuration values may be proxies). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** The settings' values read one key at a time (`WorkspaceConfiguration.get`). */
export function readSettings(get: (key: string) => unknown): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const key of Object.keys(SETTING_KEYS)) {
    section[key] = get(key);
  }
  return toServerSettings(section);
}

/** The `irilint.server.*` settings. */
export interface ServerSettings {
  command?: string | string[] | null;
  interpreter?: string | null;
}

export interface ResolveContext {
  /** The first workspace folder's path, if any. */
  workspaceFolder?: string;
  /** The user's home directory. */
  home?: string;
}

export interface ServerCommand {
  command: string;
  args: string[];
}

/**
 * Commands the server runs (its executeCommandProvider): vscode-languageclient
 * registers them itself, so the extension only contributes their titles.
 */
export const SERVER_COMMANDS: readonly string[] = ['irilint.checkWorkspace'];

export const DEFAULT_COMMAND: readonly string[] = ['irilint', 'server'];

/** Expands `~`, `${userHome}`, `${workspaceFolder}` and `${env:NAME}`. */
export function expandPath(value: string, ctx: ResolveContext, env: NodeJS.ProcessEnv = process.env): string {
  let s = value.trim();
  if (ctx.home && (s === '~' || s.startsWith('~/') || s.startsWith('~\\'))) {
    s = ctx.home + s.slice(1);
  }
  s = s.replace(/\$\{(userHome|workspaceFolder|env:([^}]+))\}/g, (whole, name: string, envName?: string) => {
    if (name === 'userHome') {
      return ctx.home ?? whole;
    }
    if (name === 'workspaceFolder') {
      return ctx.workspaceFolder ?? whole;
    }
    return env[envName as string] ?? '';
  });
  return s;
}

/**
 * An executable path: expanded, and a relative path that names a directory
 * (`.venv/bin/python`) taken from the workspace folder. A bare name
 * (`irilint`, `python3`) is left for the PATH search.
 */
function executable(value: string, ctx: ResolveContext): string {
  const s = expandPath(value, ctx);
  const hasDir = s.includes('/') || s.includes('\\');
  if (hasDir && !path.isAbsolute(s) && ctx.workspaceFolder) {
    return path.join(ctx.workspaceFolder, s);
  }
  return s;
}

/**
 * The command line that starts the server:
 * `irilint.server.interpreter` set -> `<interpreter> -m irilint server`;
 * else `irilint.server.command`: a list is the command line, a string is
 * the path of the `irilint` executable (`<path> server`); unset or empty:
 * `irilint server`.
 */
export function resolveServerCommand(settings: ServerSettings, ctx: ResolveContext = {}): ServerCommand {
  const interpreter = typeof settings.interpreter === 'string' ? settings.interpreter.trim() : '';
  if (interpreter) {
    return { command: executable(interpreter, ctx), args: ['-m', 'irilint', 'server'] };
  }
  const cmd = settings.command;
  if (typeof cmd === 'string' && cmd.trim()) {
    return { command: executable(cmd, ctx), args: ['server'] };
  }
  if (Array.isArray(cmd)) {
    const parts = cmd.filter((p): p is string => typeof p === 'string');
    if (parts.length > 0 && parts[0].trim()) {
      return {
        command: executable(parts[0], ctx),
        args: parts.slice(1).map((a) => expandPath(a, ctx)),
      };
    }
  }
  return { command: DEFAULT_COMMAND[0], args: DEFAULT_COMMAND.slice(1) };
}

/** A code action or command as the server returns it (only what we use). */
export interface ActionLike {
  title: string;
  kind?: string;
  edit?: unknown;
  command?: unknown;
  disabled?: unknown;
}

/**
 * The action titled `title` (exactly, else the first whose title starts
 * with it) among the server's answer; disabled ones are skipped.
 */
export function pickAction<T extends ActionLike>(actions: readonly T[] | null | undefined, title: string): T | undefined {
  if (!actions) {
    return undefined;
  }
  const usable = actions.filter((a) => a && typeof a.title === 'string' && !a.disabled);
  return usable.find((a) => a.title === title) ?? usable.find((a) => a.title.startsWith(title));
}

export type ConvertTarget = 'uri' | 'iri';

/** The server's title for each conversion. */
export const CONVERT_TITLES: Readonly<Record<ConvertTarget, string>> = {
  uri: 'Convert to URI',
  iri: 'Convert to IRI',
};

/** The message shown when there is nothing to convert under the cursor. */
export function nothingToConvertMessage(target: ConvertTarget): string {
  return target === 'uri'
    ? 'irilint: no IRI under the cursor that can be converted to a URI.'
    : 'irilint: no URI under the cursor that can be converted to an IRI.';
}
