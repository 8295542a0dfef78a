// Talking to the console's server.

// Unauthorized is thrown when the server wants the console's token.
export class Unauthorized extends Error {}

// NotFound is thrown for a stack (or plan) the server does not have.
export class NotFound extends Error {}

// Unreachable is thrown when the server does not answer: `cairn console`
// has stopped.
export class Unreachable extends Error {}

// getJSON fetches an API document.
export async function getJSON (path) {
  let res
  try {
    res = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' })
  } catch (e) {
    throw new Unreachable('The console does not answer: `cairn console` has stopped.')
  }
  const body = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }))
  if (res.status === 401) throw new Unauthorized(body.error)
  if (res.status === 404) throw new NotFound(body.error)
  if (!res.ok) throw new Error(body.error)
  return body
}

// takeToken gives the server the token of the page's address (its
// fragment, #token=…), for the cookie that lets this browser read the
// stacks, and takes the token out of the address.
export async function takeToken () {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash)
  if (!m) return
  history.replaceState(history.state, '', location.pathname + location.search)
  await fetch('/api/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: decodeURIComponent(m[1]) })
  }).catch(() => {})
}

// stackPath is the API path of a stack.
export function stackPath (project, name) {
  return `/api/stacks/${encodeURIComponent(project)}/${encodeURIComponent(name)}`
}
