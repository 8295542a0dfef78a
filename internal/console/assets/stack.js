// The pages of one stack: its header and tabs, its overview, its history
// and a resource's page.

import { h, link, when, dateText } from './dom.js'
import { stackURL, resourceURL } from './routes.js'
import { stackStatus } from './stacks.js'
import { properties } from './values.js'
import { resourceTree, providerName } from './tree.js'

// views are the tabs of a stack's pages, by their address's last part.
const views = [['overview', 'Overview'], ['graph', 'Graph'], ['history', 'History'], ['plan', 'Plan']]

// live are the resources of the stack that are not waiting to be deleted.
export function live (stack) {
  return stack.resources.filter(r => !r.delete)
}

// stackHeader shows the stack's name, status and tabs.
export function stackHeader (stack, page) {
  const tags = Object.entries(stack.tags ?? {}).sort()
  return h('div', { class: 'stack-head' },
    h('h1', null, h('span', { class: 'project' }, `${stack.project} / `), stack.name, ' ',
      stackStatus(stack.running, stack.history[0])),
    h('p', { class: 'meta' }, 'Last update ', when(stack.lastUpdate), ` · ${live(stack).length} resources`,
      tags.map(([k, v]) => h('span', { class: 'chip', title: 'tag' }, `${k}: ${v}`))),
    h('nav', { class: 'tabs' }, views.filter(([v]) => v !== 'plan' || stack.plan).map(([v, label]) =>
      h('a', { href: stackURL(stack, v === 'overview' ? '' : v), 'data-link': true, class: v === page ? 'active' : null }, label))))
}

// section is a titled part of a page.
export function section (title, ...body) {
  return h('section', { class: 'part' }, h('h2', null, title), ...body)
}

// overviewPage shows the stack's outputs, resources and latest operations.
export function overviewPage (stack) {
  const recent = stack.history.slice(0, 10)
  return [
    section('Outputs', properties(stack.outputs, 'This stack has no outputs.')),
    pending(stack),
    section(`Resources (${live(stack).length})`, resourceTree(stack)),
    section('Latest operations', historyTable(stack, recent),
      stack.history.length > recent.length &&
        h('p', null, link(stackURL(stack, 'history'), `All ${stack.history.length} operations`)))
  ]
}

// pending lists the operations that began and were not seen to end: the
// steps in flight while an operation runs, or else steps it left
// unfinished.
function pending (stack) {
  if (stack.pendingOperations.length === 0) return null
  const list = h('ul', null, stack.pendingOperations.map(op => h('li', null, h('code', null, op.urn), ` (${op.type})`)))
  if (stack.running) return section('In progress', list)
  return section('Pending operations',
    h('p', { class: 'warning' }, 'These operations began and were not seen to end: the resources may exist in the cloud ' +
      'but not in the state, or the other way round. ', h('code', null, 'cairn refresh'), ' settles them.'),
    list)
}

// historyPage shows every operation of the stack, with its errors and
// policy violations.
export function historyPage (stack) {
  return section(`History (${stack.history.length} operations)`, historyTable(stack, stack.history, true))
}

// changeKinds say how to show the counts of an operation's steps.
const changeKinds = { create: ['+', 'created'], update: ['~', 'updated'], replace: ['±', 'replaced'], delete: ['-', 'deleted'], same: ['', 'unchanged'] }

// changes shows the counts of an operation's steps by kind.
export function changes (counts) {
  const kinds = Object.keys(counts ?? {}).sort((a, b) => order(a) - order(b))
  if (kinds.length === 0) return h('span', { class: 'quiet' }, 'no changes')
  return kinds.map((k, i) => {
    const [sign, label] = changeKinds[k] ?? ['', k]
    return [i > 0 && ' ', h('span', { class: `change ${k}` }, `${sign}${counts[k]} ${label}`)]
  })
}

function order (kind) {
  const i = Object.keys(changeKinds).indexOf(kind)
  return i < 0 ? 99 : i
}

// historyTable shows operations, newest first; full adds their errors and
// policy violations below each.
function historyTable (stack, records, full) {
  if (records.length === 0) return h('p', { class: 'quiet' }, 'No operation has run on this stack yet.')
  const rows = records.flatMap(r => {
    const row = h('tr', { class: 'record', 'data-version': r.version },
      h('td', null, r.version),
      h('td', null, r.kind),
      h('td', null, h('span', { class: `badge ${r.result}` }, r.result)),
      h('td', null, h('time', { title: dateText(r.startTime) }, dateText(r.startTime))),
      h('td', null, duration(r.endTime - r.startTime)),
      h('td', null, changes(r.resourceChanges)),
      h('td', null, r.message || h('span', { class: 'quiet' }, '—'),
        !full && r.error && h('div', { class: 'error-text' }, r.error),
        !full && r.policyViolations?.length > 0 && h('div', { class: 'policy-count' }, `${r.policyViolations.length} policy violations`)))
    const detail = full && (r.error || r.policyViolations?.length > 0) &&
      h('tr', { class: 'detail' }, h('td', { colspan: 7 },
        r.error && h('pre', { class: 'error-text' }, r.error),
        policies(stack, r.policyViolations)))
    return [row, detail]
  })
  return h('table', { class: 'list history' },
    h('thead', null, h('tr', null, ['Version', 'Kind', 'Result', 'Started', 'Took', 'Changes', 'Message'].map(t => h('th', null, t)))),
    h('tbody', null, rows))
}

// policies lists an operation's policy violations.
function policies (stack, violations) {
  if (!violations?.length) return null
  return h('ul', { class: 'policies' }, violations.map(v =>
    h('li', null, h('span', { class: `badge ${v.enforcementLevel}` }, v.enforcementLevel), ' ',
      h('strong', null, `${v.policyPackName}/${v.policyName}`), v.resourceUrn && [' on ', link(resourceURL(stack, v.resourceUrn), nameOf(v.resourceUrn))],
      ': ', v.message)))
}

function duration (secs) {
  if (!(secs >= 0)) return '—'
  if (secs < 60) return `${secs}s`
  return `${Math.floor(secs / 60)}m ${secs % 60}s`
}

// nameOf is the name part of a URN.
export function nameOf (urn) {
  return urn.slice(urn.lastIndexOf('::') + 2)
}

// resourcePage shows one resource: what it is, what it refers to and what
// refers to it, and its inputs and outputs.
export function resourcePage (stack, urn) {
  const all = stack.resources.filter(r => r.urn === urn)
  const r = all.find(x => !x.delete) ?? all[0]
  if (!r) {
    return section('No such resource', h('p', null, 'The stack has no resource ', h('code', null, urn), '.'))
  }
  const ref = u => link(resourceURL(stack, u), nameOf(u))
  const refs = us => us.length === 0 ? h('span', { class: 'quiet' }, 'none') : us.map((u, i) => [i > 0 && ', ', ref(u)])
  const dependents = live(stack).filter(x => x.dependencies.includes(urn)).map(x => x.urn)
  const children = live(stack).filter(x => x.parent === urn).map(x => x.urn)
  const provider = live(stack).find(x => x.urn === r.provider)
  const flags = ['protect', 'delete', 'pendingReplacement', 'taint', 'external', 'retainOnDelete'].filter(f => r[f])
  const facts = [
    ['URN', h('code', null, r.urn)],
    ['Type', h('code', null, r.type)],
    ['ID', r.id ? h('code', null, r.id) : h('span', { class: 'quiet' }, r.custom ? 'none' : 'none (a component)')],
    ['Provider', provider ? link(resourceURL(stack, provider.urn), providerName(provider)) : h('span', { class: 'quiet' }, 'none')],
    ['Parent', r.parent ? ref(r.parent) : h('span', { class: 'quiet' }, 'none')],
    ['Children', refs(children)],
    ['Depends on', refs(r.dependencies)],
    ['Depended on by', refs(dependents)],
    ['Created', r.created ? dateText(r.created) : h('span', { class: 'quiet' }, 'unknown')],
    ['Modified', r.modified ? dateText(r.modified) : h('span', { class: 'quiet' }, 'unknown')],
    r.sourcePosition && ['Declared at', h('code', null, r.sourcePosition)],
    flags.length > 0 && ['Flags', flags.map(f => h('span', { class: 'chip' }, f))]
  ].filter(Boolean)
  return [
    h('section', { class: 'part resource' },
      h('h2', null, r.urn.slice(r.urn.lastIndexOf('::') + 2), ' ', h('span', { class: 'type' }, r.type)),
      h('table', { class: 'facts' }, h('tbody', null, facts.map(([k, v]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, v))))),
      r.initErrors?.length > 0 && h('div', { class: 'warning' }, 'Its last create or update failed part way: ',
        h('ul', null, r.initErrors.map(e => h('li', null, e))))),
    section('Inputs', properties(r.inputs)),
    section('Outputs', properties(r.outputs))
  ]
}
