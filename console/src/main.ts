import './styles.css'
import { DocentConsole } from './app.ts'
import { SessionChangedDialog } from './session-changed.ts'
import { SignInDialog, SignInForm } from './sign-in.ts'
import { applyTheme, storedTheme } from './theme.ts'

applyTheme(storedTheme())
customElements.define('sign-in-form', SignInForm)
customElements.define('sign-in-dialog', SignInDialog)
customElements.define('session-changed-dialog', SessionChangedDialog)
customElements.define('docent-console', DocentConsole)
