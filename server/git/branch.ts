const MAX_SLUG = 40

/** Accepts a branch name git would accept (a conservative subset): `docent/fix-typo-1a2b3c`. */
export function checkBranchName(branch: string): string {
  const ok =
    // The length is checked apart from the pattern (see shapes.ts).
    branch.length <= 200 &&
    /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(branch) &&
    !branch.includes('..') &&
    !branch.includes('//') &&
    !branch.endsWith('/') &&
    !branch.endsWith('.lock') &&
    !branch.split('/').some((part) => part.startsWith('.'))
  if (!ok) throw new Error(`invalid branch name "${branch}"`)
  return branch
}

/** A branch-safe slug of the first prompt: lower-case words joined by `-`, at most 40 characters. */
export function slugOfPrompt(prompt: string): string {
  const words = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
  let slug = ''
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word
    if (next.length > MAX_SLUG) break
    slug = next
  }
  return slug || (words[0]?.slice(0, MAX_SLUG) ?? '') || 'edit'
}

/** `docent/<slug>-<short id>`: stable for a job, so a retried run pushes to the same branch. */
export function branchName(firstPrompt: string, jobId: string): string {
  return `docent/${slugOfPrompt(firstPrompt)}-${jobId.slice(0, 8).toLowerCase()}`
}
