import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App, configFromLocation } from './App.tsx'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={configFromLocation()} />
  </StrictMode>,
)
