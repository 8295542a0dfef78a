// The resources of a stack as a tree: each under its parent, with the
// provider that manages it.

import { h, link } from './dom.js'
import { resourceURL } from './routes.js'

const providerType = 'pulumi:providers:'

// providerName names a provider resource by its package, and by its own
// name unless it is a default provider.
export function providerName (r) {
  const pkg = r.type.slice(providerType.length)
  return r.name.startsWith('default') ? pkg : `${pkg} ${r.name}`
}

// resourceTree shows the stack's resources, children under their parents,
// in the state's order. Resources waiting to be deleted are marked.
export function resourceTree (stack) {
  if (stack.resources.length === 0) return h('p', { class: 'quiet' }, 'This stack has no resources.')
  const present = new Set(stack.resources.map(r => r.urn))
  const children = new Map()
  const roots = []
  for (const r of stack.resources) {
    if (r.parent && present.has(r.parent)) {
      if (!children.has(r.parent)) children.set(r.parent, [])
      children.get(r.parent).push(r)
    } else {
      roots.push(r)
    }
  }
  const providers = new Map(stack.resources.filter(r => r.type.startsWith(providerType)).map(r => [r.urn, providerName(r)]))
  const node = r => {
    const parts = [
      link(resourceURL(stack, r.urn), r.name),
      h('span', { class: 'type' }, r.type),
      r.id && h('span', { class: 'id', title: 'ID' }, r.id),
      r.provider && h('span', { class: 'chip provider', title: r.provider }, `via ${providers.get(r.provider) ?? 'provider'}`),
      r.protect && h('span', { class: 'chip' }, 'protected'),
      r.delete && h('span', { class: 'chip danger' }, 'to delete')
    ].filter(Boolean)
    const line = h('span', { class: 'line' }, parts.map((p, i) => [i > 0 && ' ', p]))
    const kids = r.delete ? [] : children.get(r.urn) ?? []
    if (kids.length === 0) return h('li', { class: 'leaf', 'data-urn': r.urn }, line)
    return h('li', { 'data-urn': r.urn }, h('details', { open: true }, h('summary', null, line), h('ul', null, kids.map(node))))
  }
  return h('ul', { class: 'tree' }, roots.map(node))
}
