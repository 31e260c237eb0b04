import { expect, test } from 'vitest'
import { checkBranchName } from './git/branch.ts'
import { checkLocalName } from './agent/hosts/local-repositories.ts'
import { isCommitId, isJobIdShape, isSessionIdShape } from './shapes.ts'

// Lengths are checked apart from the patterns: each shape still takes and refuses what its counted repeat did.
test('identifier shapes hold at both bounds', () => {
  expect(isCommitId('a'.repeat(40))).toBe(true)
  expect(isCommitId('a'.repeat(39))).toBe(false)
  expect(isCommitId('a'.repeat(41))).toBe(false)
  expect(isCommitId('A'.repeat(40))).toBe(false)
  expect(isJobIdShape('x')).toBe(true)
  expect(isJobIdShape('x'.repeat(100))).toBe(true)
  expect(isJobIdShape('x'.repeat(101))).toBe(false)
  expect(isJobIdShape('')).toBe(false)
  expect(isJobIdShape('a/b')).toBe(false)
  expect(isSessionIdShape('s'.repeat(43))).toBe(true)
  expect(isSessionIdShape('s'.repeat(42))).toBe(false)
  expect(isSessionIdShape('s'.repeat(44))).toBe(false)
  expect(checkBranchName(`d${'x'.repeat(199)}`)).toHaveLength(200)
  expect(() => checkBranchName(`d${'x'.repeat(200)}`)).toThrow(/invalid branch name/)
  expect(() => checkBranchName('-d')).toThrow(/invalid branch name/)
  expect(checkLocalName(`d${'x'.repeat(99)}`)).toHaveLength(100)
  expect(() => checkLocalName(`d${'x'.repeat(100)}`)).toThrow(/invalid local repository name/)
  expect(() => checkLocalName('.d')).toThrow(/invalid local repository name/)
})
