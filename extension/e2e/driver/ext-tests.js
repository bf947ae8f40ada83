// Run the extension's e2e suite (out/e2e/suite/index.js) inside code-server's real node
// extension host, from headless Chromium (playwright-core). code-server's workbench honours the
// `payload` URL parameter ([["extensionDevelopmentPath",URI],["extensionTestsPath",URI]]) like
// VS Code's own browser test harness; when the suite's run() settles the workbench calls
// window.codeAutomationExit(code). This script's exit code is that code (1 on timeout).
//
// env: PORT, FOLDER (workspace), DEV (extension root), TESTS (suite module without .js),
//      OUTDIR (screenshots, toast texts), TIMEOUT_MS.
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const os = require('os');
const path = require('path');

const { PORT, FOLDER, DEV, TESTS, OUTDIR } = process.env;
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS || 300000);
const HOST = `127.0.0.1:${PORT}`;
const remote = (p) => `vscode-remote://${HOST}${p}`;

(async () => {
  const t0 = Date.now();
  const payload = JSON.stringify([['extensionDevelopmentPath', remote(DEV)], ['extensionTestsPath', remote(TESTS)]]);
  const url = `http://${HOST}/?folder=${encodeURIComponent(FOLDER)}&payload=${encodeURIComponent(payload)}`;
  const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'dtypeguard-chromium-'));
  const ctx = await chromium.launchPersistentContext(udd, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let code = 1;
  try {
    const page = ctx.pages()[0] || (await ctx.newPage());
    let done;
    const exited = new Promise((resolve) => (done = resolve));
    await page.exposeFunction('codeAutomationLog', () => {});
    await page.exposeFunction('codeAutomationExit', (c) => done(c));
    page.on('console', (m) => {
      const t = m.text().replace(/%c|color: [^ ;]+;?/g, '');
      if (t.includes('E2E ') || /error/i.test(m.type())) console.log(t.trim().slice(0, 600));
      // the suite asks for a screenshot of what the user sees now (kept in OUTDIR as an artifact)
      const shot = /E2E SCREENSHOT ([\w-]+)/.exec(t);
      if (shot && OUTDIR) {
        const file = path.join(OUTDIR, `${shot[1]}.png`);
        page.screenshot({ path: `${file}.tmp.png` }).then(() => fs.renameSync(`${file}.tmp.png`, file)).catch(() => {});
      }
      // ... or the text of the notification toasts shown now, with their buttons (the extension
      // API cannot read notifications; the suite asserts on what the user reads)
      const toasts = /E2E TOASTS ([\w-]+)/.exec(t);
      if (toasts && OUTDIR) {
        const file = path.join(OUTDIR, `${toasts[1]}.txt`);
        page.locator('.notifications-toasts .notification-toast').allInnerTexts()
          .then((texts) => { fs.writeFileSync(`${file}.tmp`, texts.join('\n----\n')); fs.renameSync(`${file}.tmp`, file); })
          .catch(() => {});
      }
    });
    await page.goto(url);
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), TIMEOUT_MS));
    const result = await Promise.race([exited, timeout]);
    code = result === 0 ? 0 : 1;
    if (result === 'timeout') console.log(`E2E TIMEOUT: the suite did not finish within ${TIMEOUT_MS / 1000}s`);
    if (code !== 0 && OUTDIR) await page.screenshot({ path: path.join(OUTDIR, 'failure.png') }).catch(() => {});
  } finally {
    await ctx.close().catch(() => {});
    fs.rmSync(udd, { recursive: true, force: true });
  }
  console.log(`extension tests exit code ${code} after ${(Date.now() - t0) / 1000}s`);
  process.exit(code);
})().catch((e) => {
  console.error('driver error:', e);
  process.exit(1);
});
