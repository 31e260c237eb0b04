import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { type FormEvent, useMemo, useRef, useState } from 'react'

/** Where the Docent server is and which assistant key to use: from `?api=&key=&domain=`, else Vite env. */
export interface DocentConfig {
  api: string
  apiKey: string
  domain: string
}

export function configFromLocation(): DocentConfig {
  const params = new URLSearchParams(location.search)
  const env = (import.meta as { env?: Record<string, string | undefined> }).env ?? {}
  return {
    api: (params.get('api') ?? env.VITE_DOCENT_API ?? 'http://localhost:8787').replace(/\/+$/, ''),
    apiKey: params.get('key') ?? env.VITE_DOCENT_ASSISTANT_KEY ?? '',
    domain: params.get('domain') ?? env.VITE_DOCENT_DOMAIN ?? 'demo',
  }
}

type DocentMessage = UIMessage<{ threadId?: string } | undefined>

/**
 * `useChat` from @ai-sdk/react with `DefaultChatTransport` against Docent's v2 endpoint. The thread id comes back
 * in the finish event's message metadata; sending it with the next question continues the same thread.
 */
export function App({ config }: { config: DocentConfig }) {
  const threadId = useRef<string | null>(null)
  const [thread, setThread] = useState<string | null>(null)
  const [input, setInput] = useState('')
  const transport = useMemo(
    () =>
      new DefaultChatTransport<DocentMessage>({
        api: `${config.api}/discovery/v2/assistant/${encodeURIComponent(config.domain)}/message`,
        headers: { authorization: `Bearer ${config.apiKey}` },
        prepareSendMessagesRequest: ({ messages }) => ({
          body: { fp: 'react-example', threadId: threadId.current, messages, currentPath: location.pathname.slice(0, 200) },
        }),
      }),
    [config],
  )
  const { messages, sendMessage, status, error, stop } = useChat<DocentMessage>({
    transport,
    onFinish: ({ message }) => {
      const id = message.metadata?.threadId
      if (id) {
        threadId.current = id
        setThread(id)
      }
    },
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const text = input.trim()
    if (!text) return
    setInput('')
    void sendMessage({ text })
  }

  return (
    <main style={{ maxWidth: 720, margin: '40px auto', fontFamily: 'system-ui, sans-serif', padding: '0 16px' }}>
      <h1>Ask the docs (React + @ai-sdk/react)</h1>
      <p data-testid="thread">{thread ? `Thread: ${thread}` : 'No thread yet'}</p>
      <ol aria-label="Conversation" style={{ paddingLeft: 20 }}>
        {messages.map((message) => (
          <li key={message.id} data-role={message.role} style={{ marginBottom: 16 }}>
            <strong>{message.role === 'user' ? 'You' : 'Docent'}:</strong>{' '}
            <span style={{ whiteSpace: 'pre-wrap' }}>{message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}</span>
            {message.parts.some((part) => part.type === 'source-url') && (
              <ul aria-label="Sources">
                {message.parts.map((part, i) =>
                  part.type === 'source-url' ? (
                    <li key={i}>
                      <a href={part.url}>{part.title ?? part.url}</a>
                    </li>
                  ) : null,
                )}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {error && <p role="alert">Error: {error.message}</p>}
      <form onSubmit={submit} style={{ display: 'flex', gap: 8 }}>
        <input
          aria-label="Question"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          style={{ flex: 1, padding: 8 }}
          placeholder="Ask a question"
        />
        {status === 'streaming' || status === 'submitted' ? (
          <button type="button" onClick={() => stop()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
      <p data-testid="status">{status}</p>
    </main>
  )
}
