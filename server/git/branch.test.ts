import { describe, expect, test } from 'vitest'
import { branchName, checkBranchName, slugOfPrompt } from './branch.ts'

describe('branch names', () => {
  test('docent/<slug>-<short id>, stable per job and valid for git', () => {
    expect(branchName('Replace "Lumen Flags" with "Lumen Toggles" everywhere', 'AbCdEfGh1234567890xyzQ')).toBe(
      'docent/replace-lumen-flags-with-lumen-toggles-abcdefgh',
    )
    for (const prompt of ['', '!!!', 'Ünïcödé façade', '../../etc/passwd', 'x'.repeat(500), '日本語のページを追加', 'a.lock', '-x-']) {
      const branch = branchName(prompt, 'Zz09_-abcdefghijkl')
      expect(checkBranchName(branch)).toBe(branch)
      expect(branch.length).toBeLessThanOrEqual(7 + 40 + 1 + 8)
    }
    expect(slugOfPrompt('Ünïcödé façade')).toBe('unicode-facade')
    expect(slugOfPrompt('日本語')).toBe('edit')
  })
})
