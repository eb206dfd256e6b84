import { diffArrays } from 'diff';

/**
 * Two lines, or two values, laid side by side token by token (a diff of their tokens): the
 * tokens both hold in the same order are the frame, the others are what differs. A pair that is
 * mostly one frame with a value or two changed is a drifted copy or one slot filled twice; a pair
 * where one side only adds to the other narrows it (an argument more), unless what it adds is a flag
 * or the rest of a name. Nothing here knows a name: only the shape of tokens.
 */

/** One token of a value: a flag (`--online`) whole, other words cut at `-_/.:=` into segments. */
export interface Token {
  text: string;
  /** Which word of the value (split at spaces) it comes from: a name's segments share one. */
  word: number;
  flag: boolean;
}

/** Tokens past this many are not compared (a long command or line is cut). */
const MAX_TOKENS = 40;

const isPlaceholder = (t: string) => t === '<>';
const isNumber = (t: string) => /^\d+(?:\.\d+)*$/.test(t);

const REDIRECT = /^\d?[<>]|^&>/;

export function valueTokens(value: string): Token[] {
  const out: Token[] = [];
  value
    .trim()
    .split(/\s+/)
    .forEach((w, word) => {
      // Where the shell sends a stream (`2>/dev/null`, `2>&1`) is no word of the command.
      if (REDIRECT.test(w)) return;
      if (/^--?[\p{L}]/u.test(w)) out.push({ text: w.replace(/=.*$/, ''), word, flag: true });
      // A dotted number is one token (a version: `8.5.2`), other words are cut at their punctuation.
      else for (const s of w.match(/\d+(?:\.\d+)+|[\p{L}\p{N}<>]+/gu) ?? []) out.push({ text: s, word, flag: false });
    });
  return out.slice(0, MAX_TOKENS);
}

/** Which tokens of `a` and of `b` are in their common subsequence (jsdiff's `diffArrays`, Myers' diff). */
export function commonMask<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): [boolean[], boolean[]] {
  return diffMask(a, b, same).slice(0, 2) as [boolean[], boolean[]];
}

/** As commonMask, and whether some tokens of `a` stand where tokens of `b` stand (a removal next to an addition: one replaced). */
function diffMask<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): [boolean[], boolean[], boolean] {
  const inA: boolean[] = [];
  const inB: boolean[] = [];
  let replaced = false;
  let previous: 'added' | 'removed' | 'kept' = 'kept';
  for (const part of diffArrays(a as T[], b as T[], { comparator: same })) {
    const count = part.count ?? part.value.length;
    if (!part.added) for (let k = 0; k < count; k++) inA.push(!part.removed);
    if (!part.removed) for (let k = 0; k < count; k++) inB.push(!part.added);
    const now = part.added ? 'added' : part.removed ? 'removed' : 'kept';
    if ((now === 'added' && previous === 'removed') || (now === 'removed' && previous === 'added')) replaced = true;
    previous = now;
  }
  return [inA, inB, replaced];
}

/** How two values of one slot differ: what each has of its own, and how strongly that marks a pair (0: not a pair). */
export interface ValueDiff {
  strength: number;
  /** What changed: a word for a word (`pnpm` / `npm`), a flag added or changed, a name extended or cut. */
  change: 'replaced' | 'flag' | 'name';
}

/**
 * Two values compared by their tokens. A token for a token with most of the frame kept is the
 * strongest mark; an added flag or name segment a weaker one; an added argument only narrows
 * (`zorb check` and `zorb check src/` say one thing) and is no pair. Shared numbers and placeholders
 * are no frame (`Tool 4` and `Other 4` share nothing).
 */
export function compareValues(x: string, y: string, tokensOf: (v: string) => Token[] = valueTokens): ValueDiff | null {
  const a = tokensOf(x);
  const b = tokensOf(y);
  // No token in common: nothing to align (most pairs of values end here).
  if (!a.some((t) => b.some((u) => u.text === t.text))) return null;
  const [inA, inB, replaced] = diffMask(a, b, (p, q) => p.text === q.text && p.flag === q.flag);
  const frame = a.filter((t, i) => inA[i] && !isNumber(t.text) && !isPlaceholder(t.text)).length;
  if (frame === 0) return null;
  // A token that only moved (`--all --quiet` and `--quiet --all`) is no change.
  const moved = (t: Token, other: readonly Token[]) => other.some((o) => o.text === t.text && o.flag === t.flag);
  const onlyA = a.filter((t, i) => !inA[i] && !isPlaceholder(t.text) && !moved(t, b));
  const onlyB = b.filter((t, i) => !inB[i] && !isPlaceholder(t.text) && !moved(t, a));
  if (onlyA.length === 0 && onlyB.length === 0) return null;
  // A value standing where the other has a placeholder (`cd packages/<>` / `cd packages/ledger`): an instance of it.
  if (instance(a, inA, onlyA, onlyB) || instance(b, inB, onlyB, onlyA)) return null;
  const changed = Math.max(onlyA.length, onlyB.length);
  const kept = frame / (frame + changed);
  // One job run by two programs (`zorb test -q` / `quax test`): the same words after another first word.
  if (sameJob(a, b)) return { strength: 0.65, change: 'replaced' };
  if (onlyA.length > 0 && onlyB.length > 0) {
    // The frame must outweigh the change: `x lgtm` and `x generate-docs --quiet` share only their tool.
    // And a token must stand where the other's stood: `req_x` and `x-versions` only share a word.
    if (frame < changed || !replaced) return { strength: 0.15, change: 'replaced' };
    // A changed last word changes what is acted on (`run build`, `run test`): two actions side by
    // side more often than one slot filled twice (`pnpm test`, `npm test`).
    // A number changed last is a version changed (`Name 3` / `Name 4`), not another action.
    const lastChanged = !inA[a.length - 1] && !inB[b.length - 1] && !(isNumber(a.at(-1)!.text) && isNumber(b.at(-1)!.text));
    return { strength: (0.3 + 0.7 * kept) * (lastChanged ? 0.5 : 1), change: 'replaced' };
  }
  // One side only adds. A flag changes what the command does; a segment inside a word the other has
  // too changes a name (`core-storage` and `core-storage-oss`); a word of its own is an argument.
  const [added, longer, longerMask] = onlyA.length > 0 ? [onlyA, a, inA] : [onlyB, b, inB];
  const sharedWords = new Set(longer.filter((_, i) => longerMask[i]).map((t) => t.word));
  // A flag changes a command, not a bare name (`tool` named in prose and `tool lint --fix` run).
  const shorter = longer === a ? b : a;
  // A flag with a word of its own after it (`--filter web`, `-p store`) aims the command at one target: it narrows it.
  if (added.some((t, i) => t.flag && added[i + 1] !== undefined && !added[i + 1]!.flag && added[i + 1]!.word === t.word + 1)) return null;
  if (added.some((t) => t.flag) && new Set(shorter.map((t) => t.word)).size >= 2) return { strength: 0.35 + 0.4 * kept, change: 'flag' };
  // Only the rest of a name: a folder put before a path (`tools/x.sh` and `x.sh`) names the same file.
  const inShared = added.filter((t) => sharedWords.has(t.word));
  // A word of its own beside it (`make pages-quick` against `pages`): a command run on a name, not the name changed.
  if (inShared.length < added.length) return null;
  if (inShared.length > 0 && !folderOnly(longer, longerMask, inShared)) return { strength: 0.35 + 0.4 * kept, change: 'name' };
  return null;
}

/** The value with placeholders has nothing of its own, and the other no more tokens than it has placeholders left unmatched (where they stand). */
const instance = (withHoles: readonly Token[], kept: readonly boolean[], own: readonly Token[], other: readonly Token[]) =>
  own.length === 0 && other.length <= withHoles.filter((t, i) => !kept[i] && isPlaceholder(t.text)).length;

/** Two commands of two words or more whose first words differ and whose other words, flags aside, are the same. */
function sameJob(a: readonly Token[], b: readonly Token[]): boolean {
  if (a.length < 2 || b.length < 2 || a[0]!.text === b[0]!.text || a[0]!.word !== 0 || a[1]!.word === 0 || b[1]!.word === 0) return false;
  const job = (t: readonly Token[]) =>
    t
      .slice(1)
      .filter((x) => !x.flag)
      .map((x) => x.text)
      .join(' ');
  return job(a) !== '' && job(a) === job(b);
}

/** The added tokens all stand before every kept one of their word: a leading folder, not a changed name (nor a folder put inside a path). */
function folderOnly(tokens: readonly Token[], kept: readonly boolean[], added: readonly Token[]): boolean {
  return added.every((t) => {
    const i = tokens.indexOf(t);
    return tokens.some((u, j) => j > i && u.word === t.word && kept[j]) && !tokens.some((u, j) => j < i && u.word === t.word && kept[j]);
  });
}

/** A line's words for aligning two lines: lower-cased, code spans and punctuation aside. */
export const lineWords = (text: string): string[] =>
  (
    text
      .toLowerCase()
      // A list's number or bullet, or a table's first bar, is where the line stands, not what it says.
      .replace(/^\s*(?:[-*+|]|\d+[.)])\s+/, '')
      .match(/[\p{L}\p{N}][\p{L}\p{N}'_.-]*/gu) ?? []
  )
    .map((w) => w.replace(/[.'-]+$/, ''))
    .slice(0, MAX_TOKENS);

/** Two lines aligned word by word: the words in common, and what each has of its own. */
export function alignLines(a: readonly string[], b: readonly string[]): { common: number; onlyA: string[]; onlyB: string[] } {
  const [inA, inB] = commonMask(a, b, (x, y) => x === y);
  return {
    common: inA.filter(Boolean).length,
    onlyA: a.filter((_, i) => !inA[i]),
    onlyB: b.filter((_, i) => !inB[i]),
  };
}
