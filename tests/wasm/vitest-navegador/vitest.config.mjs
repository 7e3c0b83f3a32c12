// Vitest's browser mode in Debian's headless Chromium through Debian's chromedriver: WebdriverIO is
// given both binaries, so nothing is downloaded. datoteca/vitest resolves to its browser entry there
// (the "browser" condition), which needs the package's globalSetup.
import { defineConfig } from 'vitest/config';
import { webdriverio } from '@vitest/browser-webdriverio';

export default defineConfig({
  test: {
    include: ['*.test.mjs'],
    globalSetup: ['datoteca/vitest/setup'],
    browser: {
      enabled: true,
      headless: true,
      provider: webdriverio({
        capabilities: {
          'goog:chromeOptions': {
            binary: '/usr/bin/chromium',
            args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
          },
          'wdio:chromedriverOptions': { binary: '/usr/bin/chromedriver' },
        },
      }),
      instances: [{ browser: 'chrome' }],
    },
  },
});
