// Showing property values, as the API sends them: strings, numbers,
// booleans and null as they are; anything else an object with one member
// saying what it is ({"secret": true}, {"object": {…}}, …).

import { h } from './dom.js'

// value shows one property value.
export function value (v) {
  if (v === null) return h('span', { class: 'v-null' }, 'null')
  switch (typeof v) {
    case 'string': return h('span', { class: 'v-str' }, v === '' ? '""' : v)
    case 'number': return h('span', { class: 'v-num' }, String(v))
    case 'boolean': return h('span', { class: 'v-bool' }, String(v))
  }
  if (v.secret) return h('span', { class: 'v-secret', title: 'a secret: the console never shows its value' }, '[secret]')
  if (v.unknown) return h('span', { class: 'v-unknown' }, '(known after apply)')
  if ('number' in v) return h('span', { class: 'v-num' }, v.number)
  if ('asset' in v) return h('span', { class: 'v-special' }, `asset ${v.asset}`)
  if ('archive' in v) return h('span', { class: 'v-special' }, `archive ${v.archive}`)
  if ('resource' in v) return h('span', { class: 'v-special' }, `resource ${v.resource}`)
  if ('array' in v) {
    if (v.array.length === 0) return h('span', { class: 'v-empty' }, '[]')
    return h('ol', { class: 'v-array', start: 0 }, v.array.map(e => h('li', null, value(e))))
  }
  if ('object' in v) {
    if (Object.keys(v.object).length === 0) return h('span', { class: 'v-empty' }, '{}')
    return properties(v.object)
  }
  return h('span', { class: 'v-special' }, JSON.stringify(v))
}

// properties shows a property map as a table, by name.
export function properties (m, empty = 'none') {
  const keys = Object.keys(m ?? {}).sort()
  if (keys.length === 0) return h('p', { class: 'quiet' }, empty)
  return h('table', { class: 'props' },
    h('tbody', null, keys.map(k => h('tr', null, h('th', { scope: 'row' }, k), h('td', null, value(m[k]))))))
}
