// npm run bench console-charts: how the console's chart library was chosen. Each candidate draws the Overview's chart
// (stacked daily bars, answered and unanswered) in a Vite production build; the bench prints its gzip size and the
// median time to draw 90 and 365 days in headless Chromium, and the ratio to uPlot (the one the console uses).
// Chart.js and ECharts are not dependencies: they are installed into a temporary folder with npm for the run.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'
import { browserSkipReason, launchBrowser } from '../../tests/browser/support.ts'

const CANDIDATES = { uplot: 'uplot@1.6.32', chartjs: 'chart.js@4.6.1', echarts: 'echarts@6.1.0' }

const DATA = `export function series(n) {
  const days = [], answered = [], unanswered = []
  for (let i = 0; i < n; i++) { days.push(1767225600 + i * 86400); answered.push(20 + ((i * 37) % 50)); unanswered.push(3 + ((i * 13) % 9)) }
  return { days, answered, unanswered }
}`
const SOURCES: Record<keyof typeof CANDIDATES, string> = {
  uplot: `import uPlot from 'uplot'; import { series } from './data.js'
window.draw = (el, n) => { const { days, answered, unanswered } = series(n); const bars = uPlot.paths.bars({ size: [0.8, 40] })
  return new uPlot({ width: 800, height: 260, series: [{}, { fill: '#4f46e5', paths: bars }, { fill: '#f59e0b', paths: bars }] }, [days, answered.map((a, i) => a + unanswered[i]), unanswered], el) }`,
  chartjs: `import { BarController, BarElement, CategoryScale, Chart, LinearScale } from 'chart.js'; import { series } from './data.js'
Chart.register(BarController, BarElement, CategoryScale, LinearScale)
window.draw = (el, n) => { const { days, answered, unanswered } = series(n); const canvas = document.createElement('canvas'); el.append(canvas)
  return new Chart(canvas, { type: 'bar', options: { animation: false, responsive: false, scales: { x: { stacked: true }, y: { stacked: true } } },
    data: { labels: days, datasets: [{ data: answered }, { data: unanswered }] } }) }`,
  echarts: `import * as echarts from 'echarts/core'; import { BarChart } from 'echarts/charts'; import { GridComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'; import { series } from './data.js'
echarts.use([BarChart, GridComponent, CanvasRenderer])
window.draw = (el, n) => { const { days, answered, unanswered } = series(n); el.style.width = '800px'; el.style.height = '260px'
  const chart = echarts.init(el); chart.setOption({ animation: false, xAxis: { type: 'category', data: days }, yAxis: {},
    series: [{ type: 'bar', stack: 't', data: answered }, { type: 'bar', stack: 't', data: unanswered }] }); return chart }`,
}

const skip = browserSkipReason()
if (skip) process.exit(0)
const work = mkdtempSync(join(tmpdir(), 'docent-chart-bench-'))
try {
  writeFileSync(join(work, 'package.json'), '{"private":true,"type":"module"}')
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', ...Object.values(CANDIDATES)], { cwd: work, stdio: 'inherit' })
  writeFileSync(join(work, 'data.js'), DATA)
  const browser = await launchBrowser()
  const results: Array<{ name: string; gzip: number; ms90: number; ms365: number }> = []
  for (const [name, source] of Object.entries(SOURCES)) {
    writeFileSync(join(work, `${name}.js`), source)
    const outDir = join(work, 'dist', name)
    await build({
      root: work,
      logLevel: 'silent',
      configFile: false,
      resolve: { alias: { uplot: resolve(work, 'node_modules/uplot/dist/uPlot.esm.js') } },
      build: {
        outDir,
        target: 'es2022',
        modulePreload: false,
        rolldownOptions: { input: { [name]: join(work, `${name}.js`) }, output: { entryFileNames: '[name].js' } },
      },
    })
    const code = readdirSync(outDir)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(outDir, file)))
    const gzip = code.reduce((sum, bytes) => sum + gzipSync(bytes, { level: 9 }).length, 0)
    const page = await browser.newPage()
    await page.setContent('<div id="host"></div>')
    await page.addScriptTag({ content: code.map(String).join('\n'), type: 'module' })
    await page.waitForFunction(() => typeof (window as unknown as { draw?: unknown }).draw === 'function')
    const times = await page.evaluate(async () => {
      const draw = (
        window as unknown as {
          draw: (el: HTMLElement, n: number) => { destroy?: () => void; dispose?: () => void; getZr?: () => { flush(): void } }
        }
      ).draw
      const out: Record<number, number> = {}
      for (const n of [90, 365]) {
        const runs: number[] = []
        for (let i = 0; i < 31; i++) {
          const el = document.createElement('div')
          document.getElementById('host')!.append(el)
          const start = performance.now()
          const chart = draw(el, n)
          // Each library's draw is complete by then: uPlot commits in a microtask, ECharts on flush.
          await Promise.resolve()
          await Promise.resolve()
          chart.getZr?.().flush()
          runs.push(performance.now() - start)
          chart.destroy ? chart.destroy() : chart.dispose?.()
          el.remove()
        }
        out[n] = runs.sort((a, b) => a - b)[15]!
      }
      return out
    })
    results.push({ name, gzip, ms90: times[90]!, ms365: times[365]! })
    await page.close()
  }
  await browser.close()
  const base = results.find((result) => result.name === 'uplot')!
  for (const r of results) {
    console.log(
      `${r.name.padEnd(8)} ${(r.gzip / 1024).toFixed(1).padStart(6)} KB gzip (${(r.gzip / base.gzip).toFixed(1)}x)  ` +
        `draw 90 days ${r.ms90.toFixed(1).padStart(5)} ms, 365 days ${r.ms365.toFixed(1).padStart(5)} ms (${(r.ms365 / base.ms365).toFixed(1)}x uPlot)`,
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
