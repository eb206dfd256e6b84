// The source folders are layers: a module imports its own folder or a lower layer, never a higher
// one, and no module reaches itself through its imports. docs/architecture.md explains the layers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const SRC = path.resolve(import.meta.dirname, '../../server/src');

/** Lowest first. Folders on one line are peers that must not import each other. */
export const LAYERS: string[][] = [
  ['common', 'show', '(root)'],
  ['model'],
  ['repo'],
  ['state'],
  ['analysis'],
  ['planning'],
  ['engine'],
  ['call'],
  ['gate', 'narrate'],
  ['steps'],
  ['mcp', 'reports'],
  ['cli'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') ? [full] : [];
  });
}

function layerOf(file: string): string {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel.length === 1) return rel[0] === 'cli.ts' ? 'cli' : '(root)';
  return rel[0]!;
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return found.map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
}

const rank = (layer: string) => LAYERS.findIndex((row) => row.includes(layer));
const files = sources(SRC);
const graph = new Map(files.map((f) => [f, imports(f)]));

test('every source folder has a place in the layers', () => {
  const unknown = [...new Set(files.map(layerOf))].filter((l) => rank(l) < 0);
  assert.deepEqual(unknown, [], 'add the new folder to LAYERS and docs/architecture.md');
});

test('imports run downward only', () => {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (to !== from && rank(to) >= rank(from)) upward.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
    }
  }
  assert.deepEqual(upward, []);
});

test('no module reaches itself through its imports', () => {
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(SRC, f)).join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  assert.deepEqual(circles, []);
});

test('the check sees an upward import when there is one', () => {
  // Guards the checker itself: analysis importing planning must count as upward.
  assert.ok(rank('analysis') < rank('planning'));
  assert.ok(rank(layerOf(path.join(SRC, 'cli.ts'))) > rank('mcp'));
});
