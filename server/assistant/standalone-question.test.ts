import { expect, test } from 'vitest'
import type { ChatTurn } from '../../shared/assistant.ts'
import { standaloneQuestion } from './standalone-question.ts'

const user = (text: string): ChatTurn => ({ role: 'user', text })
const assistant = (text: string): ChatTurn => ({ role: 'assistant', text })

test('a first question is searched as it is', () => {
  expect(standaloneQuestion([user('How do percentage rollouts work?')])).toBe('How do percentage rollouts work?')
})

test('a follow-up that refers back gets the earlier question in front of it', () => {
  const turns = [user('How do I install the Python SDK?'), assistant('Run pip install lumenflags. [1]'), user('and how do I configure it?')]
  expect(standaloneQuestion(turns)).toBe('How do I install the Python SDK? and how do I configure it?')
  expect(standaloneQuestion([user('What are segments?'), assistant('...'), user('Go?')])).toBe('What are segments? Go?')
})

test('a follow-up that stands on its own is not mixed with the old topic', () => {
  const turns = [user('What are segments?'), assistant('...'), user('How do webhooks sign their payload requests?')]
  expect(standaloneQuestion(turns)).toBe('How do webhooks sign their payload requests?')
})

test('the query stays within 500 characters and keeps the whole last question', () => {
  const long = 'x'.repeat(450)
  const query = standaloneQuestion([user('y '.repeat(400)), assistant('...'), user(`${long} it`)])
  expect(query.length).toBeLessThanOrEqual(500)
  expect(query.endsWith(`${long} it`)).toBe(true)
  expect(standaloneQuestion([user('a'), user('z'.repeat(600))]).length).toBe(500)
})
