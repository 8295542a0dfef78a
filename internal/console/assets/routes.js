// The application's addresses.

// route reads the page's address: the list of stacks, or a view of one
// stack (overview, graph, history, resource, plan).
export function route () {
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent)
  if (parts.length === 0) return { page: 'stacks' }
  if (parts[0] === 'stacks' && (parts.length === 3 || parts.length === 4)) {
    return { page: parts[3] ?? 'overview', project: parts[1], name: parts[2], urn: new URLSearchParams(location.search).get('urn') }
  }
  return { page: 'missing' }
}

// stackURL is the address of a view of a stack ({project, name}).
export function stackURL (st, view) {
  return `/stacks/${encodeURIComponent(st.project)}/${encodeURIComponent(st.name)}${view ? '/' + view : ''}`
}

// resourceURL is the address of a resource's page.
export function resourceURL (st, urn) {
  return `${stackURL(st, 'resource')}?urn=${encodeURIComponent(urn)}`
}
