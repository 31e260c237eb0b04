// A reader who follows a link from an answer to another page of the same site finds the panel open there.
const REOPEN_KEY = 'docent:reopen'

export function markReopen() {
  try {
    sessionStorage.setItem(REOPEN_KEY, '1')
  } catch {
    // No session storage: the panel stays closed on the next page.
  }
}

/** True once after a marked navigation. */
export function takeReopen(): boolean {
  try {
    const reopen = sessionStorage.getItem(REOPEN_KEY) === '1'
    sessionStorage.removeItem(REOPEN_KEY)
    return reopen
  } catch {
    return false
  }
}
