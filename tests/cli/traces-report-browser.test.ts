import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, openSession, yesToAll } from '../helpers/mcp.js';
import { MESSY_INSTRUCTIONS, sandbox, tempDir } from '../helpers/sandbox.js';

/**
 * `traces report --format html` in a real browser (issue 33): Chromium headless renders the page
 * from a file, offline, and its DOM holds the report's text, with the hostile strings as text and no
 * element they would have made. Optional where Chromium is absent (it says so and skips); .ci/run
 * installs Debian's chromium, so it runs there. COPILOT_ONBOARD_SCREENSHOT=FILE keeps the screenshot.
 */

function chromium(): string | null {
  for (const name of [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome']) {
    if (!name) continue;
    const r = spawnSync(name, ['--version'], { encoding: 'utf8' });
    if (!r.error && r.status === 0) return name;
  }
  return null;
}

test('the HTML report renders in headless Chromium, offline: the text is there, the hostile strings stay text', async (t) => {
  const browser = chromium();
  if (browser === null) {
    console.log('# Chromium is not installed (apt-get install chromium): the HTML report was checked without a browser only');
    t.skip('chromium not installed');
    return;
  }
  const repo = sandbox(t, {
    '.github/copilot-instructions.md': MESSY_INSTRUCTIONS,
    '.cursor/rules/<img src=x onerror=alert(1)>.mdc':
      '---\ndescription: x\nalwaysApply: true\n---\n# Rules\n\n- Always use yarn for installs.\n',
  });
  const s = await openSession(t, { repo, elicit: yesToAll, clientName: '<script>document.title="pwned"</script>' });
  await s.call('onboarding_propose');
  await s.call('onboarding_approve');
  await s.call('onboarding_migrate');
  await s.close();
  const out = path.join(repo, 'report.html');
  const env = { ...process.env };
  delete env.COPILOT_ONBOARD_REPO;
  const r = spawnSync(process.execPath, [CLI, 'traces', 'report', '--repo', repo, '--format', 'html', '--out', out], {
    encoding: 'utf8',
    env,
  });
  assert.equal(r.status, 0, r.stderr);

  const profile = tempDir(t);
  const common = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`, '--window-size=1200,1800'];
  const url = `file://${out}`;
  const dom = spawnSync(browser, [...common, '--dump-dom', url], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(dom.status, 0, dom.stderr);
  assert.match(dom.stdout, /<title>copilot-onboard: traces report<\/title>/, 'no script changed the title');
  assert.match(dom.stdout, /what the person was asked, and what changed/);
  assert.match(dom.stdout, /Trace chain verifies/);
  assert.match(dom.stdout, /onboarding_migrate/);
  assert.ok(dom.stdout.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the file name is text');
  assert.doesNotMatch(dom.stdout, /<img|<script/i);

  const shot = process.env.COPILOT_ONBOARD_SCREENSHOT
    ? path.resolve(process.env.COPILOT_ONBOARD_SCREENSHOT)
    : path.join(profile, 'report.png');
  const png = spawnSync(browser, [...common, `--screenshot=${shot}`, url], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(png.status, 0, png.stderr);
  const bytes = fs.readFileSync(shot);
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  assert.ok(bytes.length > 10_000, `a page was drawn (${bytes.length} bytes)`);
});
