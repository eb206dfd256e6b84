import type { Unit } from '../../model/model.js';
import { headingKey } from '../outline.js';
import { placedText, unitText } from './rendered.js';

/**
 * What a written unit is found again under. `rule`: a unit's text under the heading `ctx` (its
 * heading's words; '' under none). `heading`: a heading's words under the heading `ctx`. `anywhere`
 * and `anywhere-heading`: a unit's text, or a heading's words, wherever it stands (used only to see
 * that a whole document is written already, never to merge a part of one).
 */
export interface UnitKey {
  readonly kind: 'rule' | 'heading' | 'anywhere' | 'anywhere-heading';
  readonly ctx: string;
  readonly text: string;
}

/** A unit's text under the heading `ctx`. */
export const ruleKey = (ctx: string, text: string): UnitKey => ({ kind: 'rule', ctx, text });
/** A heading line under the heading `parent`. */
export const headKey = (parent: string, line: string): UnitKey => ({ kind: 'heading', ctx: parent, text: headingKey(line) });
/** A unit's text wherever it stands. */
export const anywhereKey = (text: string): UnitKey => ({ kind: 'anywhere', ctx: '', text });
/** A heading line wherever it stands. */
export const anywhereHeadingKey = (line: string): UnitKey => ({ kind: 'anywhere-heading', ctx: '', text: headingKey(line) });

/** The keys a unit is found under wherever it stands, heading aside. */
export const plainKeys = (u: Unit): UnitKey[] =>
  u.kind === 'heading' ? [anywhereHeadingKey(u.lines[0]!)] : [anywhereKey(unitText(u)), anywhereKey(placedText(u))];

/** Values by key: nested maps by kind, heading and text. */
export class KeyMap<V> {
  private readonly byKind = new Map<UnitKey['kind'], Map<string, Map<string, V>>>();

  get(k: UnitKey): V | undefined {
    return this.byKind.get(k.kind)?.get(k.ctx)?.get(k.text);
  }

  /** The value under `k`, made by `make` when missing. */
  ensure(k: UnitKey, make: () => V): V {
    let byCtx = this.byKind.get(k.kind);
    if (!byCtx) this.byKind.set(k.kind, (byCtx = new Map()));
    let byText = byCtx.get(k.ctx);
    if (!byText) byCtx.set(k.ctx, (byText = new Map()));
    let value = byText.get(k.text);
    if (value === undefined) byText.set(k.text, (value = make()));
    return value;
  }
}
