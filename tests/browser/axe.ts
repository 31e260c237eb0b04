import type { Page } from 'playwright-core'

/** axe-core's serious and critical violations on the page (its context needs `bypassCSP`: axe is an inline script). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' })
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> }
    }
    const { violations } = await axe.run(document)
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  })
}
