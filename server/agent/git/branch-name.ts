/** Accepts a branch name git would accept (a conservative subset): `docent/fix-typo-1a2b3c`. */
export function checkBranchName(branch: string): string {
  const ok =
    /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/.test(branch) &&
    !branch.includes('..') &&
    !branch.includes('//') &&
    !branch.endsWith('/') &&
    !branch.endsWith('.lock') &&
    !branch.split('/').some((part) => part.startsWith('.'))
  if (!ok) throw new Error(`invalid branch name "${branch}"`)
  return branch
}
