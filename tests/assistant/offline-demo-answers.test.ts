import { expect, test } from 'vitest'
import { askAgain } from '../../server/analytics/gaps/ask-again.ts'
import { testDocent } from '../support/app.ts'

// The offline model over the demo docs, through the real retrieval and prompt: questions whose form or details the
// docs do not share are answered from the page made for them; a question about something else is declined.
test('the offline model answers past a question form, an amount or a detail the docs lack, and declines another subject', async () => {
  const { docent } = await testDocent()
  const project = docent.context.projects.byId('demo')!
  const ask = (question: string) => askAgain(docent.context, project, question)
  const cases: Array<[question: string, page: string | undefined]> = [
    // "difference between" is how the question is asked, not what it is about.
    ['what is the difference between temporary and permanent flags?', 'concepts/flags'],
    // "100k" is an amount: the docs write it otherwise, and it is not what the question is about.
    ['what do I pay if I go over 100k MACs', 'account/plans-and-billing'],
    // The docs never say "downtime", but one passage holds rotate, SDK and key together.
    ['how do I rotate an sdk key without downtime', 'concepts/environments'],
    // Readers "undo"; the docs "restore" (and "revert", "roll back").
    ['how do I undo archiving a flag?', 'api-reference/v2/flags'],
    ['How do I renew my passport?', undefined],
    ['What theme should I pick for a wedding?', undefined],
  ]
  for (const [question, page] of cases) {
    const { answered, cited } = await ask(question)
    expect({ question, answered }).toEqual({ question, answered: page !== undefined })
    if (page) expect(cited.map((source) => source.path)).toContain(page)
  }
  await docent.stop()
})
