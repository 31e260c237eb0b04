import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import { createKey } from '../../server/keys/keys.ts'
import { browserSkipReason, launchBrowser, type RunningDocent, startDocent } from './support.ts'
import { seriousViolations } from './axe.ts'

// One browser, two tabs of the console, one session cookie between them: tab A signed in to one organization, then
// tab B signs in to another. Tab A must not act in the second one, and must say why, rather than list its keys or
// make one there.

const skip = browserSkipReason()

describe.skipIf(skip)('two console tabs signed in to two organizations', () => {
  let browser: Browser
  let server: RunningDocent
  let acmeKey: string

  beforeAll(async () => {
    await buildConsoleIfStale()
    ;[browser, server] = await Promise.all([
      launchBrowser(),
      startDocent({
        projects: [
          { id: 'demo', organization: 'demo', domain: 'demo', name: 'Demo docs', docs: { directory: 'demo/docs', public: true } },
          { id: 'acme-docs', organization: 'acme', domain: 'acme.example', name: 'Acme docs', docs: { directory: 'demo/docs' } },
        ],
      }),
    ])
    acmeKey = (await createKey(server.docent.context.store, { kind: 'admin', organization: 'acme', name: 'acme admin' })).secret
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  async function signIn(page: Page, key: string, path: string) {
    await page.goto(`${server.url}${path}`)
    await page.getByLabel('Admin key').fill(key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('Admin key').waitFor({ state: 'detached' })
    await page.locator('main h1').first().waitFor()
  }

  /** Tab A on demo's Keys; then tab B signs out and in again as acme, as the tester did. */
  async function twoTabs() {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    const a = await context.newPage()
    const b = await context.newPage()
    await signIn(a, server.adminKey, '/console/demo/keys')
    await a.getByRole('table').waitFor()
    await b.goto(`${server.url}/console/demo/overview`)
    await b.getByRole('button', { name: 'Sign out' }).click()
    await signIn(b, acmeKey, '/console')
    await b.waitForURL(/\/console\/acme-docs\/overview/)
    return { context, a, b }
  }

  test('a key created in the tab still showing demo is refused, not made in acme; the tab says so and reloads as acme', async () => {
    const { context, a } = await twoTabs()
    const store = server.docent.context.store
    const acmeKeys = (await store.listKeys('acme')).length
    const demoKeys = (await store.listKeys('demo')).length
    expect(await a.locator('.who').textContent()).toContain('demo')

    await a.getByRole('button', { name: 'Create key' }).click()
    await a.getByLabel('Name').fill('Made in the wrong organization')
    await a.getByRole('button', { name: 'Create', exact: true }).click()

    const dialog = a.getByRole('dialog', { name: 'Signed in to another organization' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toMatch(/This tab shows demo, but another tab has signed this browser in to\s+acme/)
    // The server refused it: the request named demo, the session is acme's.
    expect(await a.locator('main .callout.danger').textContent()).toMatch(/signed in to organization acme.*another tab signed in/)
    expect(await a.locator('[data-secret]').count()).toBe(0)
    expect((await store.listKeys('acme')).length).toBe(acmeKeys)
    expect((await store.listKeys('demo')).length).toBe(demoKeys)
    expect(await seriousViolations(a)).toEqual([])

    await dialog.getByRole('button', { name: 'Reload as acme' }).click()
    await a.waitForURL(/\/console\/acme-docs\/keys/)
    await a.getByRole('table').waitFor()
    expect(await a.locator('.who').textContent()).toContain('acme')
    expect(await a.getByRole('table').textContent()).toContain('acme admin')
    await context.close()
  })

  test('coming back to the tab, it checks who is signed in and says so before anything is clicked', async () => {
    const { context, a } = await twoTabs()
    // What the browser does when the person switches back to tab A. Headless Chromium keeps every tab visible and
    // focused, so bringToFront fires nothing there: the window's focus event is sent as a desktop browser would.
    await a.bringToFront()
    await a.evaluate(() => window.dispatchEvent(new Event('focus')))
    await a.getByRole('dialog', { name: 'Signed in to another organization' }).waitFor()
    // Its buttons are behind the dialog, and the keys it listed were demo's, never acme's.
    expect(await a.getByRole('table').textContent()).not.toContain('acme admin')
    await context.close()
  })

  test('signed in to the same organization again in the other tab, the tab carries on where it was', async () => {
    const { context, a, b } = await twoTabs()
    await a.evaluate(() => window.dispatchEvent(new Event('focus')))
    const dialog = a.getByRole('dialog', { name: 'Signed in to another organization' })
    await dialog.waitFor()
    await b.getByRole('button', { name: 'Sign out' }).click()
    await signIn(b, server.adminKey, '/console')
    await a.evaluate(() => window.dispatchEvent(new Event('focus')))
    await dialog.waitFor({ state: 'detached' })
    await a.getByRole('button', { name: 'Create key' }).click()
    await a.getByLabel('Name').fill('Made in demo, as shown')
    await a.getByRole('button', { name: 'Create', exact: true }).click()
    await a.locator('[data-secret]').waitFor()
    expect((await server.docent.context.store.listKeys('demo')).some((key) => key.name === 'Made in demo, as shown')).toBe(true)
    await context.close()
  })

  test("moving to a project screen after the other tab signed in: the refusal is explained, not 'does not belong'", async () => {
    const { context, a } = await twoTabs()
    await a.getByRole('link', { name: 'Agent' }).click()
    await a.getByRole('dialog', { name: 'Signed in to another organization' }).waitFor()
    await context.close()
  })
})
