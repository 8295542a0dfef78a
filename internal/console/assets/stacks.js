// The list of the backend's stacks.

import { h, link, when } from './dom.js'
import { stackURL } from './routes.js'

// stacksPage shows every stack of the backend, by project.
export function stacksPage (list) {
  const current = list.current
  const rows = list.stacks.map(st => {
    const isCurrent = current && current.project === st.project && current.name === st.name
    return h('tr', { class: isCurrent ? 'current' : null },
      h('td', null, st.project),
      h('td', null, link(stackURL(st), st.name), isCurrent && h('span', { class: 'chip' }, 'current')),
      h('td', null, when(st.lastUpdate)),
      h('td', null, st.resources),
      h('td', null, stackStatus(st.running, st.last, st.error)))
  })
  return h('section', null,
    h('h1', null, 'Stacks'),
    h('p', { class: 'quiet' }, 'Kept in ', h('code', null, list.backend)),
    rows.length === 0
      ? h('p', { class: 'empty' }, 'This backend holds no stacks yet: create one with ', h('code', null, 'cairn stack init'), '.')
      : h('table', { class: 'list stacks' },
        h('thead', null, h('tr', null, ['Project', 'Stack', 'Last update', 'Resources', 'Status'].map(t => h('th', null, t)))),
        h('tbody', null, rows)))
}

// stackStatus shows whether an operation runs on a stack, or how its last
// one ended.
export function stackStatus (running, last, error) {
  if (error) return h('span', { class: 'badge failed', title: error }, 'unreadable')
  if (running) {
    const who = `${running.username}@${running.hostname}, pid ${running.pid}`
    return h('span', { class: 'badge running', title: `since ${new Date(running.timestamp).toLocaleString()}` },
      `${running.operation || 'operation'} running`, h('span', { class: 'who' }, ` · ${who}`))
  }
  if (!last) return h('span', { class: 'quiet' }, 'no operation yet')
  return h('span', { class: `badge ${last.result}` }, `${last.kind} ${last.result}`)
}
