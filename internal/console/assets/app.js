// The console's application: it reads the address, loads what the page
// shows from the API, draws it, and polls so that the page follows the
// stack while an operation runs.

import { h, link, clear } from './dom.js'
import { getJSON, takeToken, stackPath, Unauthorized, NotFound, Unreachable } from './api.js'
import { route, stackURL } from './routes.js'
import { stacksPage } from './stacks.js'
import { stackHeader, overviewPage, historyPage, resourcePage } from './stack.js'
import { graphPage } from './graph.js'
import { planPage } from './plan.js'

const main = document.getElementById('main')
const crumbs = document.getElementById('crumbs')
const notice = document.getElementById('notice')

// How often a page asks whether what it shows has changed, in
// milliseconds: a stack's version, or the list of stacks.
const pollStack = 2000
const pollList = 4000

// generation counts the pages shown: a load or poll started for an earlier
// page is dropped.
let generation = 0
let timer = null

// load fetches what a page shows: the list of stacks, or a stack (and the
// plan, on its plan page).
async function load (r) {
  if (r.page === 'stacks') return { list: await getJSON('/api/stacks') }
  const stack = await getJSON(stackPath(r.project, r.name))
  const plan = r.page === 'plan' ? await getJSON('/api/plan') : null
  return { stack, plan }
}

// changed returns what the page shows if it has changed since data was
// loaded, or null.
async function changed (r, data) {
  if (r.page === 'stacks') {
    const list = await getJSON('/api/stacks')
    return JSON.stringify(list) === JSON.stringify(data.list) ? null : { list }
  }
  const { version } = await getJSON(`${stackPath(r.project, r.name)}/version`)
  return version === data.stack.version ? null : load(r)
}

// draw shows a page's data, keeping where the reader had scrolled to.
function draw (r, data) {
  const scroll = window.scrollY
  clear(main)
  clear(crumbs)
  crumbs.append(link('/', 'Stacks'))
  if (r.page === 'stacks') {
    main.append(stacksPage(data.list))
    document.title = 'Stacks · Cairn console'
  } else {
    const st = data.stack
    crumbs.append(' / ', link(stackURL(st), `${st.project}/${st.name}`))
    const body = {
      overview: () => overviewPage(st),
      graph: () => graphPage(st),
      history: () => historyPage(st),
      resource: () => resourcePage(st, r.urn),
      plan: () => planPage(st, data.plan)
    }[r.page]
    if (!body) throw new NotFound(`This console has no page ${location.pathname}.`)
    main.append(stackHeader(st, r.page), ...[body()].flat().filter(Boolean))
    document.title = `${st.project}/${st.name} · Cairn console`
    document.body.dataset.version = st.version
  }
  window.scrollTo(0, scroll)
  document.body.dataset.page = r.page
  document.body.dataset.state = 'ready'
}

// fail shows why a page cannot be shown.
function fail (e) {
  clear(main)
  let state = 'error'
  let title = 'Something went wrong'
  let text = [e.message]
  if (e instanceof Unauthorized) {
    state = 'unauthorized'
    title = 'This browser has no token'
    text = ['The console shows stacks only to a browser that opened the address ', h('code', null, 'cairn console'),
      ' printed, which carries its token (#token=…). Open that address, or start ', h('code', null, 'cairn console'),
      ' again.']
  } else if (e instanceof NotFound) {
    state = 'missing'
    title = 'Not found'
  }
  main.append(h('section', { class: `part problem ${state}` }, h('h1', null, title), h('p', null, text)))
  document.body.dataset.state = state
}

// show draws the page of the address, then polls for changes.
async function show () {
  const gen = ++generation
  clearTimeout(timer)
  document.body.dataset.state = 'loading'
  const r = route()
  let data
  try {
    if (r.page === 'missing') throw new NotFound(`This console has no page ${location.pathname}.`)
    data = await load(r)
    if (gen !== generation) return
    draw(r, data)
  } catch (e) {
    if (gen === generation) fail(e)
    return
  }
  const poll = async () => {
    if (gen !== generation) return
    if (!document.hidden) {
      try {
        const fresh = await changed(r, data)
        if (gen !== generation) return
        notice.textContent = ''
        if (fresh) draw(r, data = fresh)
      } catch (e) {
        if (gen !== generation) return
        if (!(e instanceof Unreachable)) return fail(e)
        notice.textContent = e.message
      }
    }
    timer = setTimeout(poll, r.page === 'stacks' ? pollList : pollStack)
  }
  timer = setTimeout(poll, r.page === 'stacks' ? pollList : pollStack)
}

// Links within the application change the address without reloading it.
document.addEventListener('click', e => {
  const a = e.target.closest('a[data-link]')
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
  e.preventDefault()
  const href = a.getAttribute('href')
  if (href !== location.pathname + location.search) {
    history.pushState(null, '', href)
    window.scrollTo(0, 0)
  }
  show()
})
window.addEventListener('popstate', show)

await takeToken()
show()
