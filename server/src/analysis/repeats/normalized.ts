import { normalizedText, type Unit } from '../../model/model.js';

/** A unit's normalised text: `normalizedText`, or one analysis' memo of it (`normalizedTexts`). */
export type NormalizedOf = (u: Unit) => string;

/**
 * A unit's normalised text, worked out once per analysis: every pass (repeats, drifted copies,
 * rewordings, trivial lines) asks for it. `analyze` makes one and passes it to each pass; it is
 * dropped with the analysis (no unit changes during one). A pass called on its own works the text
 * out each time.
 */
export function normalizedTexts(): NormalizedOf {
  // A plain Map: it is dropped with the analysis, and a WeakMap costs the garbage collector more.
  const cache = new Map<Unit, string>();
  return (u) => {
    let text = cache.get(u);
    if (text === undefined) cache.set(u, (text = normalizedText(u)));
    return text;
  };
}
