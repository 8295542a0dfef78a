// The resources of a stack as a dependency graph, drawn in SVG: a layered
// layout, left to right, that can be zoomed, panned and searched.

import { h, s } from './dom.js'
import { resourceURL } from './routes.js'
import { live } from './stack.js'

// The size of a resource's box and the gaps between boxes, in SVG units
// (pixels at zoom 1).
const W = 230
const H = 46
const GAP_X = 90
const GAP_Y = 16

// The kinds of edges, in the order one is kept when a pair has several.
const kinds = ['dependency', 'provider', 'parent']

// layout places resources in layers, left to right: each one after the
// resources it refers to (its dependencies, provider and parent), as far
// left as that allows. Each layer is then ordered by where the resources
// it is linked to sit, down and up a few times, so that edges cross less.
export function layout (resources) {
  const nodes = resources.map((r, i) => ({ r, i, layer: 0, pos: 0, x: 0, y: 0, preds: [], succs: [] }))
  const byURN = new Map(nodes.map(n => [n.r.urn, n]))
  const edges = []
  const linked = new Set()
  for (const n of nodes) {
    const refs = { dependency: n.r.dependencies, provider: [n.r.provider], parent: [n.r.parent] }
    for (const kind of kinds) {
      for (const urn of refs[kind]) {
        const from = byURN.get(urn)
        const pair = `${urn} ${n.r.urn}`
        if (!from || from === n || linked.has(pair)) continue
        linked.add(pair)
        edges.push({ from, to: n, kind })
        from.succs.push(n)
        n.preds.push(from)
      }
    }
  }
  // A state lists a resource after what it refers to, so one pass
  // usually settles the layers; the bound stops a cycle.
  for (let pass = 0, changed = true; changed && pass < nodes.length; pass++) {
    changed = false
    for (const e of edges) {
      if (e.to.layer <= e.from.layer) {
        e.to.layer = e.from.layer + 1
        changed = true
      }
    }
  }
  const layers = []
  for (const n of nodes) (layers[n.layer] ??= []).push(n)
  const place = layer => layer.forEach((n, i) => { n.pos = i - (layer.length - 1) / 2 })
  layers.forEach(place)
  const mean = (ns, own) => ns.length === 0 ? own : ns.reduce((sum, m) => sum + m.pos, 0) / ns.length
  for (let sweep = 0; sweep < 4; sweep++) {
    const down = sweep % 2 === 0
    for (const layer of down ? layers : [...layers].reverse()) {
      const key = new Map(layer.map(n => [n, mean(down ? n.preds : n.succs, n.pos)]))
      layer.sort((a, b) => key.get(a) - key.get(b) || a.i - b.i)
      place(layer)
    }
  }
  const tallest = Math.max(...layers.map(l => l.length))
  for (const n of nodes) {
    n.x = n.layer * (W + GAP_X)
    n.y = (n.pos + (tallest - 1) / 2) * (H + GAP_Y)
  }
  return { nodes, edges, width: layers.length * (W + GAP_X) - GAP_X, height: tallest * (H + GAP_Y) - GAP_Y }
}

// clip shortens a text to n characters.
function clip (text, n) {
  return text.length <= n ? text : text.slice(0, n - 1) + '…'
}

// memory keeps the view (zoom, position, search) of a stack's graph while
// the page refreshes.
let memory = { key: '', box: null, query: '' }

// graphPage draws the stack's graph, with its tools.
export function graphPage (stack) {
  const key = `${stack.project}/${stack.name}`
  if (memory.key !== key) memory = { key, box: null, query: '' }
  const { nodes, edges, width, height } = layout(live(stack))
  if (nodes.length === 0) return h('p', { class: 'quiet' }, 'This stack has no resources.')

  const markers = kinds.map(k => s('marker', { id: `arrow-${k}`, class: `arrow ${k}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
    s('path', { d: 'M0,0 L10,5 L0,10 z' })))
  const paths = edges.map(e => {
    const x1 = e.from.x + W; const y1 = e.from.y + H / 2; const x2 = e.to.x; const y2 = e.to.y + H / 2
    const dx = Math.max(40, (x2 - x1) / 2)
    e.el = s('path', { class: `edge ${e.kind}`, d: `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`, 'marker-end': `url(#arrow-${e.kind})` })
    return e.el
  })
  const boxes = nodes.map(n => {
    const r = n.r
    const kind = r.type === 'pulumi:pulumi:Stack' ? 'root' : r.type.startsWith('pulumi:providers:') ? 'provider' : r.custom ? 'custom' : 'component'
    n.el = s('a', { href: resourceURL(stack, r.urn), 'data-link': true, class: `node ${kind}`, transform: `translate(${n.x},${n.y})`, 'data-urn': r.urn },
      s('title', null, r.urn),
      s('rect', { width: W, height: H, rx: 6 }),
      s('text', { x: 10, y: 19, class: 'name' }, clip(r.name, 28)),
      s('text', { x: 10, y: 36, class: 'type' }, clip(r.type, 32)))
    n.el.addEventListener('mouseenter', () => light(n, true))
    n.el.addEventListener('mouseleave', () => light(n, false))
    return n.el
  })
  const svg = s('svg', { class: 'graph', role: 'img', 'aria-label': `dependency graph of ${key}`, preserveAspectRatio: 'xMidYMid meet' },
    s('defs', null, markers), s('g', { class: 'edges' }, paths), s('g', { class: 'nodes' }, boxes))

  function light (n, on) {
    svg.classList.toggle('hovering', on)
    n.el.classList.toggle('lit', on)
    for (const e of edges) {
      if (e.from === n || e.to === n) {
        e.el.classList.toggle('lit', on)
        ;(e.from === n ? e.to : e.from).el.classList.toggle('near', on)
      }
    }
  }

  // The view is the SVG's viewBox: box, kept to the shape of the element
  // so that one unit is the same size across and down.
  const size = () => [svg.clientWidth || 1000, svg.clientHeight || 600]
  const show = () => {
    const b = memory.box
    svg.setAttribute('viewBox', `${b.x} ${b.y} ${b.w} ${b.h}`)
    zoomText.textContent = `${Math.round(size()[0] / b.w * 100)}%`
  }
  const fit = () => {
    const [cw, ch] = size()
    const pad = 24
    const bw = Math.max(width + 2 * pad, cw)
    const bh = Math.max(height + 2 * pad, ch)
    const w = Math.max(bw, bh * cw / ch)
    const hgt = w * ch / cw
    memory.box = { x: width / 2 - w / 2, y: height / 2 - hgt / 2, w, h: hgt }
    show()
  }
  const zoom = (f, cx, cy) => {
    const b = memory.box
    const [cw] = size()
    f = Math.min(Math.max(f, cw / 8 / b.w), Math.max(width, height, cw) * 4 / b.w)
    cx ??= b.x + b.w / 2
    cy ??= b.y + b.h / 2
    memory.box = { x: cx - (cx - b.x) * f, y: cy - (cy - b.y) * f, w: b.w * f, h: b.h * f }
    show()
  }
  const center = n => {
    const b = memory.box
    memory.box = { ...b, x: n.x + W / 2 - b.w / 2, y: n.y + H / 2 - b.h / 2 }
    show()
  }
  const point = e => new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse())

  svg.addEventListener('wheel', e => {
    e.preventDefault()
    const p = point(e)
    zoom(Math.exp(e.deltaY * 0.0015), p.x, p.y)
  }, { passive: false })
  let drag = null
  svg.addEventListener('pointerdown', e => {
    if (e.button === 0) drag = { x: e.clientX, y: e.clientY, box: memory.box, moved: false, id: e.pointerId }
  })
  svg.addEventListener('pointermove', e => {
    if (!drag) return
    const dx = e.clientX - drag.x; const dy = e.clientY - drag.y
    if (!drag.moved && Math.hypot(dx, dy) < 4) return
    if (!drag.moved) svg.setPointerCapture(drag.id)
    drag.moved = true
    svg.classList.add('dragging')
    const scale = drag.box.w / size()[0]
    memory.box = { ...drag.box, x: drag.box.x - dx * scale, y: drag.box.y - dy * scale }
    show()
  })
  const drop = () => { svg.classList.remove('dragging'); setTimeout(() => { drag = null }) }
  svg.addEventListener('pointerup', drop)
  svg.addEventListener('pointercancel', drop)
  // A drag ends with a click, which must not follow a link.
  svg.addEventListener('click', e => {
    if (drag?.moved) {
      e.preventDefault()
      e.stopPropagation()
    }
  }, true)
  new ResizeObserver(() => {
    if (!memory.box) return fit()
    const [cw, ch] = size()
    memory.box.h = memory.box.w * ch / cw
    show()
  }).observe(svg)

  // Searching marks the resources whose name, type or URN hold the text;
  // Enter brings the next one to the middle.
  let next = 0
  const count = h('span', { class: 'count' })
  const search = h('input', { type: 'search', placeholder: 'Search resources', 'aria-label': 'search resources', value: memory.query })
  const matches = () => nodes.filter(n => n.el.classList.contains('match'))
  const find = () => {
    const q = search.value.trim().toLowerCase()
    memory.query = search.value
    next = 0
    svg.classList.toggle('searching', q !== '')
    for (const n of nodes) {
      n.el.classList.toggle('match', q !== '' && [n.r.name, n.r.type, n.r.urn].some(t => t.toLowerCase().includes(q)))
    }
    const found = matches().length
    count.textContent = q === '' ? `${nodes.length} resources` : `${found} of ${nodes.length} match`
  }
  search.addEventListener('input', find)
  search.addEventListener('keydown', e => {
    const found = matches()
    if (e.key !== 'Enter' || found.length === 0) return
    center(found[next % found.length])
    next++
  })
  find()

  const zoomText = h('span', { class: 'zoom' })
  const button = (label, title, act) => h('button', { type: 'button', title, onclick: act }, label)
  const legend = h('span', { class: 'legend' },
    kinds.map(k => h('span', { class: `key ${k}` }, { dependency: 'depends on', provider: 'provider', parent: 'parent' }[k])))
  return h('div', { class: 'graph-page' },
    h('div', { class: 'graph-tools' }, search, count,
      button('−', 'zoom out', () => zoom(1.25)), zoomText, button('+', 'zoom in', () => zoom(0.8)),
      button('Fit', 'show the whole graph', fit), legend),
    h('div', { class: 'graph-frame' }, svg))
}
