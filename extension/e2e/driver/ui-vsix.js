// UI check of the *installed* .vsix: open a hazard sample in code-server's workbench (headless
// Chromium), wait for our squiggle and for the finding in the Problems panel, screenshot it.
// Waits are for DOM conditions, each with a deadline. Exit code 0 = pass.
//
// env: PORT, FOLDER (workspace with FILE at its top level), FILE, EXPECT (text of the Problems
//      row, e.g. DG004), LINE_TEXT (text of the flagged line), OUTDIR (screenshots go there);
//      optional NOTEBOOK (an .ipynb at the top level) and NOTEBOOK_EXPECT (its Problems row): the
//      notebook is opened in the notebook editor and a squiggle must show inside one of its cells.
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { PORT, FOLDER, FILE, EXPECT, OUTDIR } = process.env;

(async () => {
  const t0 = Date.now();
  const at = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'dtypeguard-chromium-'));
  const ctx = await chromium.launchPersistentContext(udd, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || (await ctx.newPage());
  let code = 1;
  try {
    await page.goto(`http://127.0.0.1:${PORT}/?folder=${encodeURIComponent(FOLDER)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 90000 });
    const entry = page.locator('.explorer-folders-view .label-name', { hasText: FILE }).first();
    await entry.waitFor({ timeout: 90000 });
    console.log(`workbench ready ${at()}`);
    await entry.click();
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 60000 });
    console.log(`editor open ${at()}`);
    await page.waitForSelector('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning, .monaco-editor .squiggly-info',
      { timeout: 90000 });
    console.log(`squiggle visible ${at()}`);
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: EXPECT }).first();
    await row.waitFor({ timeout: 60000 });
    const text = (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ');
    console.log(`PROBLEMS PANEL: ${text.slice(0, 400)}`);
    if (!/dtypeguard/.test(text)) throw new Error('Problems panel rows do not name the dtypeguard source');
    const status = page.locator('.statusbar-item', { hasText: 'dtypeguard' }).first();
    await status.waitFor({ timeout: 30000 });
    console.log(`STATUS BAR: ${(await status.innerText()).replace(/\s+/g, ' ')}`);
    // Jump to the finding so the screenshot shows the squiggled line next to the panel.
    await row.click();
    await page.locator('.monaco-editor .view-line', { hasText: process.env.LINE_TEXT || EXPECT }).first()
      .waitFor({ timeout: 30000 });
    await page.screenshot({ path: path.join(OUTDIR, 'vsix-problems-panel.png') });
    if (process.env.NOTEBOOK) {
      const nb = page.locator('.explorer-folders-view .label-name', { hasText: process.env.NOTEBOOK }).first();
      await nb.click();
      await page.waitForSelector('.notebookOverlay .cell-editor-container .monaco-editor .view-lines', { timeout: 60000 });
      console.log(`notebook open ${at()}`);
      const row = page.locator('.markers-panel .monaco-list-row', { hasText: process.env.NOTEBOOK_EXPECT || 'DG' }).first();
      await row.waitFor({ timeout: 90000 });
      console.log(`PROBLEMS PANEL (notebook): ${(await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ').slice(0, 400)}`);
      await row.click(); // reveals the cell (cells below the fold are not rendered)
      // The cell editors that show a squiggle, by their text (read in the page: the squiggle is a
      // decoration in the editor's overlay layer, the text is in its view lines).
      const line = process.env.NOTEBOOK_LINE || '';
      const squiggled = async () => page.evaluate(() => Array.from(
        document.querySelectorAll('.notebookOverlay .monaco-editor .squiggly-error, .notebookOverlay .monaco-editor .squiggly-warning'),
        (el) => (el.closest('.monaco-editor')?.querySelector('.view-lines')?.textContent || '').replace(/\s+/g, ' ')));
      const deadline = Date.now() + 60000;
      let cells = await squiggled();
      while (!cells.some((t) => t.includes(line)) && Date.now() < deadline) {
        await page.waitForTimeout(250); // poll interval for the DOM condition
        cells = await squiggled();
      }
      console.log(`NOTEBOOK SQUIGGLES in the cells: ${JSON.stringify(cells.map((t) => t.slice(0, 80)))}`);
      if (!cells.some((t) => t.includes(line))) throw new Error(`no squiggle in the cell with "${line}"`);
      await page.screenshot({ path: path.join(OUTDIR, 'vsix-notebook.png') });
    }
    console.log(`PASS ${at()}; screenshot ${path.join(OUTDIR, 'vsix-problems-panel.png')}`);
    code = 0;
  } catch (e) {
    console.log(`FAIL ${at()}: ${e.message.split('\n')[0]}`);
    await page.screenshot({ path: path.join(OUTDIR, 'vsix-failure.png') }).catch(() => {});
  } finally {
    await ctx.close().catch(() => {});
    fs.rmSync(udd, { recursive: true, force: true });
  }
  process.exit(code);
})().catch((e) => {
  console.error('driver error:', e);
  process.exit(1);
});
