import { structuredPatch } from 'diff'
import type { ChangedFile } from '../../git/tree-diff.ts'
import type { Context } from 'hono'
import type { ReviewAccess } from '../reviewer.ts'
import type { ReviewMerge } from './local-merge.ts'

export interface ReviewView {
  jobId: string
  title: string
  body: string
  branch: string
  base: string
  files: ChangedFile[]
  updatedAt: string | null
  /** Why the branch could not be shown (a repository git cannot read), instead of its diff. */
  error?: string
  /** The Merge button (a same-origin form post of the head shown), or that it was merged. */
  merge?: ReviewMerge
  /** Whether the person looking may merge (see reviewAccess); without it the page says how to. */
  access?: ReviewAccess
}

/**
 * The page for a review whose repository state cannot be read (a tree with names git refuses, a damaged record): a
 * readable error, never a 500 that every later visit repeats.
 */
export function unreadableReview(jobId: string, error: unknown): ReviewView {
  const reason = error instanceof Error ? error.message : String(error)
  return { jobId, title: `Docent job ${jobId}`, body: '', branch: '', base: '', files: [], updatedAt: null, error: reason }
}

const decoder = new TextDecoder('utf-8', { fatal: false })

/** Everything from the repository or the model is escaped: the page shows text, never markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

function isBinary(bytes: Uint8Array | null): boolean {
  return bytes?.subarray(0, 8000).includes(0) ?? false
}

/** One file's unified diff as HTML rows (`+`/`-`/context lines with classes for colour). */
function fileDiff(file: ChangedFile): string {
  if (isBinary(file.before) || isBinary(file.after)) return '<pre class="diff"><span class="meta">binary file changed</span></pre>'
  const before = file.before ? decoder.decode(file.before) : ''
  const after = file.after ? decoder.decode(file.after) : ''
  const patch = structuredPatch(
    file.kind === 'added' ? '/dev/null' : `a/${file.path}`,
    file.kind === 'deleted' ? '/dev/null' : `b/${file.path}`,
    before,
    after,
    '',
    '',
    { context: 3 },
  )
  const lines = [`--- ${patch.oldFileName}`, `+++ ${patch.newFileName}`]
  const rows = lines.map((line) => `<span class="meta">${escapeHtml(line)}</span>`)
  for (const hunk of patch.hunks) {
    rows.push(`<span class="hunk">${escapeHtml(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`)}</span>`)
    for (const line of hunk.lines) {
      const kind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('\\') ? 'meta' : 'ctx'
      rows.push(`<span class="${kind}">${escapeHtml(line)}</span>`)
    }
  }
  return `<pre class="diff">${rows.join('\n')}</pre>`
}

/** Past this many diff lines, further files are listed but not shown, so a sweeping change still gives a usable page. */
const MAX_DIFF_LINES = 20_000

/** The review page of a local "pull request": title, description, and the unified diff of the branch against its base. */
export function renderReviewPage(view: ReviewView): string {
  let budget = MAX_DIFF_LINES
  const files = view.files
    .map((file, i) => {
      if (budget <= 0) {
        return `<section class="file" id="file-${i}"><h2><span class="kind ${file.kind}">${file.kind}</span> ${escapeHtml(
          file.path,
        )}</h2><pre class="diff"><span class="meta">diff not shown: the page is long enough already</span></pre></section>`
      }
      const html = fileDiff(file)
      budget -= html.split('\n').length
      return `<section class="file" id="file-${i}"><h2><span class="kind ${file.kind}">${file.kind}</span> ${escapeHtml(
        file.path,
      )}</h2>${html}</section>`
    })
    .join('\n')
  const toc = view.files
    .map((file, i) => `<li><a href="#file-${i}">${escapeHtml(file.path)}</a> <span class="kind ${file.kind}">${file.kind}</span></li>`)
    .join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(view.title)} · Docent review</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:24px;color:#1f2328;background:#fff}
h1{font-size:24px;margin:0 0 4px}h2{font-size:15px;margin:0;padding:8px 12px;background:#f6f8fa;border-bottom:1px solid #d0d7de}
.branches code{background:#ddf4ff;padding:2px 6px;border-radius:6px}.body{white-space:pre-wrap;border:1px solid #d0d7de;border-radius:6px;padding:12px;margin:16px 0}
.file{border:1px solid #d0d7de;border-radius:6px;margin:16px 0;overflow:hidden}.diff{margin:0;padding:8px 0;overflow-x:auto;font:12px/1.45 ui-monospace,monospace}
.diff span{display:block;padding:0 12px;white-space:pre}.add{background:#e6ffec}.del{background:#ffebe9}.hunk{background:#ddf4ff;color:#57606a}.meta{color:#57606a}
.error{border:1px solid #cf222e;border-radius:6px;padding:12px;color:#cf222e}.kind{font-size:12px;border-radius:10px;padding:1px 8px;background:#eaeef2}.kind.added{background:#dafbe1}.kind.deleted{background:#ffebe9}
.merge button{font:inherit;font-weight:600;color:#fff;background:#1f883d;border:0;border-radius:6px;padding:6px 16px;cursor:pointer}.merged{color:#8250df;font-weight:600}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}h2{background:#161b22;border-color:#30363d}.file,.body{border-color:#30363d}
.add{background:#12261e}.del{background:#25171c}.hunk{background:#121d2f;color:#8b949e}.branches code{background:#121d2f}.kind{background:#30363d}}
</style>
</head>
<body>
<h1>${escapeHtml(view.title)}</h1>
<p class="branches">Job <code>${escapeHtml(view.jobId)}</code>: <code>${escapeHtml(view.branch)}</code> into <code>${escapeHtml(
    view.base,
  )}</code>${view.updatedAt ? `, updated ${escapeHtml(view.updatedAt)}` : ''}</p>
${mergeSection(view)}
${view.body.trim() ? `<div class="body">${escapeHtml(view.body)}</div>` : ''}
${view.error ? `<p class="error">This review cannot be shown: the repository could not be read (${escapeHtml(view.error)}).</p>` : ''}
<p>${
    view.error
      ? ''
      : view.files.length === 0
        ? 'No files changed.'
        : `${view.files.length} file${view.files.length === 1 ? '' : 's'} changed:`
  }</p>
${toc ? `<ul>${toc}</ul>` : ''}
${files}
</body>
</html>
`
}

/** A form, not a script (the page's policy runs none): it posts the head shown, so what is merged is what was reviewed. */
function mergeSection(view: ReviewView): string {
  const merge = view.merge
  if (!merge) return ''
  if (merge.state === 'merged') {
    return `<p class="merged">Merged into <code>${escapeHtml(view.base)}</code>${merge.commit ? ` at <code>${escapeHtml(merge.commit.slice(0, 8))}</code>` : ''}.</p>`
  }
  if (merge.state === 'running') return '<p>A run of this job is in progress: reload the page when it ends to merge.</p>'
  if (view.access === 'read') return '<p>Your console session is read-only: someone with a write key merges this.</p>'
  if (view.access !== 'write') {
    // A link from another site (Slack, an email) does not carry the SameSite=Strict session cookie: a reload does.
    return '<p>To merge, <a href="/console/">sign in to the console</a> with a write key of this organization, then reload this page.</p>'
  }
  return `<form class="merge" method="post" action="/review/${encodeURIComponent(view.jobId)}/merge"><input type="hidden" name="head" value="${escapeHtml(
    merge.head,
  )}"><button type="submit">Merge into ${escapeHtml(view.base)}</button></form>`
}

/** Pages with a Merge button or its outcome are never shown inside another site's frame. */
export function noFraming(c: Context): void {
  c.header('X-Frame-Options', 'DENY')
}
