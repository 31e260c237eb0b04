import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { type FormEvent, useMemo, useRef, useState } from 'react'
import Markdown, { type Components } from 'react-markdown'

/** Where the Docent server is and which assistant key to use: `?api=&key=&domain=`, else `.env`, else the dev defaults. */
export interface DocentConfig {
  /** '' for this page's own origin (the dev server forwards /discovery/* to Docent). */
  api: string
  apiKey: string
  domain: string
}

export function configFromLocation(): DocentConfig {
  const params = new URLSearchParams(location.search)
  const env = (import.meta as { env?: Record<string, string | undefined> }).env ?? {}
  return {
    api: (params.get('api') ?? env.VITE_DOCENT_API ?? '').replace(/\/+$/, ''),
    apiKey: params.get('key') ?? (env.VITE_DOCENT_ASSISTANT_KEY || __DOCENT_DEFAULT_KEY__),
    domain: params.get('domain') ?? (env.VITE_DOCENT_DOMAIN || 'demo'),
  }
}

type DocentMessage = UIMessage<{ threadId?: string } | undefined>

/** Links in answers: off-site ones open in a new tab. react-markdown already drops `javascript:` and renders no raw HTML. */
const components: Components = {
  a: ({ href, children }) => {
    const external = href !== undefined && new URL(href, location.href).origin !== location.origin
    return external ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <a href={href}>{children}</a>
    )
  },
}

/** `[2]` in an answer becomes a link to its second source (the order of the stream's `source-url` parts). */
function withCitations(text: string, sources: Array<{ url: string }>): string {
  return text.replace(/\[(\d{1,2})\](?!\()/g, (whole, n: string) => {
    const source = sources[Number(n) - 1]
    return source ? `[\\[${n}\\]](${source.url.replace(/[()\s]/g, encodeURIComponent)})` : whole
  })
}

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
          body: {
            fp: 'react-example',
            threadId: threadId.current,
            messages,
            currentPath: location.pathname.slice(0, 200),
          },
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
    <main
      style={{
        maxWidth: 720,
        margin: '40px auto',
        fontFamily: 'system-ui, sans-serif',
        padding: '0 16px',
        lineHeight: 1.55,
      }}
    >
      <h1>Ask the docs (React + @ai-sdk/react)</h1>
      {!config.apiKey && (
        <p role="alert">
          No assistant key. Start Docent (<code>npm start</code> in the repository prints one), then put it in <code>demo/react/.env</code>{' '}
          as <code>VITE_DOCENT_ASSISTANT_KEY=…</code> or open this page with <code>?key=…</code>.
        </p>
      )}
      <p data-testid="thread">{thread ? `Thread: ${thread}` : 'No thread yet'}</p>
      <ol aria-label="Conversation" style={{ paddingLeft: 20 }}>
        {messages.map((message) => {
          const text = message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
          const sources = message.parts.flatMap((part) => (part.type === 'source-url' ? [part] : []))
          return (
            <li key={message.id} data-role={message.role} style={{ marginBottom: 16 }}>
              <strong>{message.role === 'user' ? 'You' : 'Docent'}:</strong>
              {message.role === 'user' ? (
                <span style={{ whiteSpace: 'pre-wrap' }}>{text}</span>
              ) : (
                <Markdown components={components}>{withCitations(text, sources)}</Markdown>
              )}
              {sources.length > 0 && (
                <ul aria-label="Sources">
                  {sources.map((part) => (
                    <li key={part.sourceId}>
                      <a href={part.url}>{part.title ?? part.url}</a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          )
        })}
      </ol>
      {error && <p role="alert">Error: {error.message}</p>}
      <form onSubmit={submit} style={{ display: 'flex', gap: 8 }}>
        <input
          aria-label="Question"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          style={{ flex: 1, padding: 8, fontSize: 16 }}
          placeholder="Ask a question"
          disabled={!config.apiKey}
        />
        {status === 'streaming' || status === 'submitted' ? (
          <button type="button" onClick={() => stop()}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!config.apiKey}>
            Send
          </button>
        )}
      </form>
      <p data-testid="status">{status}</p>
    </main>
  )
}
