// A saved plan's changes, against the stack's current state.

import { h, link } from './dom.js'
import { resourceURL } from './routes.js'
import { section } from './stack.js'
import { value } from './values.js'

// planPage shows the steps of the plan that change something, each with
// the properties it changes.
export function planPage (stack, plan) {
  const latest = stack.history[0]?.version ?? 0
  const rows = plan.steps.map(st => h('tr', { class: 'step' },
    h('td', null, h('span', { class: `op ${st.op}` }, st.op)),
    h('td', null, st.op === 'create' ? st.name : link(resourceURL(stack, st.urn), st.name), h('div', { class: 'type' }, st.type)),
    h('td', null, st.changes.length === 0
      ? h('span', { class: 'quiet' }, 'no property changes')
      : h('table', { class: 'props changes' }, h('tbody', null, st.changes.map(c => h('tr', null,
        h('th', { scope: 'row' }, c.key),
        h('td', { class: 'old' }, 'old' in c ? value(c.old) : h('span', { class: 'quiet' }, '—')),
        h('td', { class: 'arrow' }, '→'),
        h('td', { class: 'new' }, 'new' in c ? value(c.new) : h('span', { class: 'quiet' }, '—'),
          c.sealed && h('div', { class: 'quiet' }, 'a secret: whether it changes cannot be told without decrypting it')))))))))
  return section(`Plan ${plan.file}`,
    h('p', { class: 'meta' }, `Made against version ${plan.baseVersion} of the stack. `,
      plan.baseVersion !== latest && h('span', { class: 'warning' },
        `The stack has had operations since (it is at version ${latest}): `, h('code', null, 'cairn up --plan'),
        ' refuses a plan whose state has moved.')),
    rows.length === 0
      ? h('p', null, 'The plan changes nothing.')
      : h('table', { class: 'list plan' },
        h('thead', null, h('tr', null, ['Step', 'Resource', 'Changes'].map(t => h('th', null, t)))),
        h('tbody', null, rows)),
    h('p', { class: 'quiet' }, `${plan.unchanged} resources stay as they are.`))
}
