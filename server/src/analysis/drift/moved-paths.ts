import { pushTo } from '../../common/collections.js';
import { meet, problem, type Drifted, type Line } from './drift-lines.js';

/**
 * One file named at two places by two files whose scopes meet (issue 39): the same path in another
 * case (`skills/x/SKILL.md`, `skills/x/skill.md`: two files on a case-sensitive disk), or the same file
 * name with one folder more inside the path (`test/support/x_helper.rb`, `test/support/account/x_helper.rb`).
 * One of the two is out of date, whichever it is. Only a file name no one gives two files (a separator
 * or an inner capital in it: not `index.ts`, `package.json`), never a path relative to its file, and
 * each file naming only its own place.
 */

/** A path with a folder and a file name with an extension (a token, `mdc:` and a leading `/` aside); never `./x` nor `../x`. */
const PATH = /^(?:\.?[\w@-][\w@.-]*\/)+[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,4}$/;
/** What separates the tokens of a line: spaces, quotes, brackets, table bars, punctuation between words. */
const TOKEN_GAP = /[\s`'"()[\]<>|,;]+/;
/** A file name two files of a project are not both given: a separator or an inner capital before its extension. */
const DISTINCTIVE_NAME = /^[\w.-]*(?:[a-z0-9][_-][a-z0-9A-Z]|[a-z][A-Z])[\w.-]*\.[A-Za-z0-9]+$/;

/** A code span with a space in it: a command. */
const COMMAND_SPAN = /`[^`\n]*\s[^`\n]*`/g;

interface Named {
  path: string;
  line: Line;
}

export function movedPaths(lines: Line[]): Drifted[] {
  // Keyed twice: by the whole path case aside (another case), and by the file name (a folder more).
  const byPath = new Map<string, Named[]>();
  const byName = new Map<string, Named[]>();
  for (const l of lines) {
    if (!l.text.includes('/')) continue;
    // A path in a command is the argument of an example (`pytest tests/path/test_x.py`), not a file named.
    const text = l.text.includes('`') ? l.text.replace(COMMAND_SPAN, ' ') : l.text;
    for (const token of text.split(TOKEN_GAP)) {
      if (!token.includes('/')) continue;
      const path = token.replace(/^(?:mdc:)?\/?/, '').replace(/[.:!?]+$/, '');
      if (!PATH.test(path)) continue;
      pushTo(byPath, path.toLowerCase(), { path, line: l });
      pushTo(byName, path.slice(path.lastIndexOf('/') + 1), { path, line: l });
    }
  }
  const out: Drifted[] = [];
  for (const named of [...byPath.values(), ...byName.values()]) {
    const paths = [...new Set(named.map((n) => n.path))];
    if (paths.length !== 2 || !oneFileTwoPlaces(paths[0]!, paths[1]!)) continue;
    const sides = paths.map((p) => named.filter((n) => n.path === p).map((n) => n.line));
    const files = sides.map((s) => new Set(s.map((l) => l.path)));
    if ([...files[0]!].some((f) => files[1]!.has(f))) continue;
    if (!sides[0]!.some((x) => sides[1]!.some((y) => meet(x, y)))) continue;
    const [a, b] = paths as [string, string];
    out.push(problem('drifted-name', `${a} or ${b}`, `one file named at two places, \`${a}\` vs \`${b}\``, sides));
  }
  return out;
}

/** The same path in another case, or the same distinctive file name with one folder more inside the path. */
function oneFileTwoPlaces(a: string, b: string): boolean {
  if (a.toLowerCase() === b.toLowerCase()) return true;
  const [x, y] = a.split('/').length < b.split('/').length ? [a.split('/'), b.split('/')] : [b.split('/'), a.split('/')];
  if (y.length !== x.length + 1 || x[x.length - 1] !== y[y.length - 1] || !DISTINCTIVE_NAME.test(x[x.length - 1]!)) return false;
  // The folder added inside the path, not before it (`apps/web/src/x.ts` may be another package's).
  const at = x.findIndex((s, i) => s !== y[i]);
  return at > 0 && x.slice(at).every((s, i) => s === y[at + i + 1]);
}
