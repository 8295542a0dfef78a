// Building DOM nodes: every text goes in as text, never as markup, so what
// a stack holds cannot become part of the page's code.

const SVG = 'http://www.w3.org/2000/svg'

// h makes an HTML element: h('a', {href: '/', class: 'x'}, 'text', child).
// Properties starting with "on" add event listeners; null, undefined and
// false properties and children are left out.
export function h (tag, props, ...children) {
  return fill(document.createElement(tag), props, children)
}

// s makes an SVG element, as h does.
export function s (tag, props, ...children) {
  return fill(document.createElementNS(SVG, tag), props, children)
}

function fill (el, props, children) {
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v == null || v === false) continue
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v)
    else el.setAttribute(k, v === true ? '' : String(v))
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue
    el.append(c instanceof Node ? c : String(c))
  }
  return el
}

// link is a link within the application, followed without reloading it.
export function link (href, ...children) {
  return h('a', { href, 'data-link': true }, ...children)
}

// clear removes an element's children.
export function clear (el) {
  while (el.firstChild) el.firstChild.remove()
}

// dateText shows a time (a Date, an RFC 3339 text or Unix seconds) in the
// reader's locale.
export function dateText (t) {
  return toDate(t).toLocaleString()
}

// ago says how long ago a time was, roughly.
export function ago (t) {
  const secs = Math.round((Date.now() - toDate(t).getTime()) / 1000)
  if (secs < 45) return 'just now'
  for (const [unit, n] of [['day', 86400], ['hour', 3600], ['minute', 60]]) {
    const k = Math.round(secs / n)
    if (k >= 1 && secs >= n * 0.75) return `${k} ${unit}${k === 1 ? '' : 's'} ago`
  }
  return 'just now'
}

// when shows a time as how long ago it was, the full time on hover.
export function when (t) {
  if (t == null) return h('span', { class: 'quiet' }, 'never')
  return h('time', { datetime: toDate(t).toISOString(), title: dateText(t) }, ago(t))
}

function toDate (t) {
  return typeof t === 'number' ? new Date(t * 1000) : new Date(t)
}
