package display

import (
	"cmp"
	"container/heap"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
)

// ordered returns the logical steps in an order that does not depend on
// when they ran: a resource after those it refers to (see eachReference),
// and otherwise in program order (by source
// position, then by URN). Previews, JSON and Markdown list steps so, so
// that two runs of one program print the same.
func (r *run) ordered() []*stepRecord {
	nodes := make([]orderNode, len(r.steps))
	index := make(map[resource.URN]int, len(r.steps))
	for i, s := range r.steps {
		nodes[i] = orderNode{step: s, pos: programPosition(stateOf(&s.event)), urn: s.event.URN}
		index[s.event.URN] = i
	}
	for i := range nodes {
		st := stateOf(&nodes[i].step.event)
		if st == nil {
			continue
		}
		eachReference(st, func(dep resource.URN, _ edgeKind) {
			if j, ok := index[dep]; ok && j != i {
				nodes[i].waits++
				nodes[j].next = append(nodes[j].next, i)
			}
		})
	}
	ready := &orderQueue{nodes: nodes}
	for i := range nodes {
		if nodes[i].waits == 0 {
			ready.items = append(ready.items, i)
		}
	}
	heap.Init(ready)
	out := make([]*stepRecord, 0, len(nodes))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		out = append(out, nodes[i].step)
		for _, j := range nodes[i].next {
			if nodes[j].waits--; nodes[j].waits == 0 {
				heap.Push(ready, j)
			}
		}
	}
	return out
}

// orderNode is a step being ordered: where the program declares it, the
// number of its dependencies not yet placed, and the steps that wait on it.
type orderNode struct {
	step  *stepRecord
	pos   position
	urn   resource.URN
	waits int
	next  []int
}

// orderQueue is a heap of the steps whose dependencies are placed, the
// first in program order on top.
type orderQueue struct {
	nodes []orderNode
	items []int
}

func (q *orderQueue) Len() int { return len(q.items) }
func (q *orderQueue) Less(i, j int) bool {
	a, b := &q.nodes[q.items[i]], &q.nodes[q.items[j]]
	if c := a.pos.compare(b.pos); c != 0 {
		return c < 0
	}
	return a.urn < b.urn
}
func (q *orderQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *orderQueue) Push(x any)    { q.items = append(q.items, x.(int)) }
func (q *orderQueue) Pop() any {
	n := len(q.items) - 1
	x := q.items[n]
	q.items = q.items[:n]
	return x
}

// position is where the program declares a resource: file, line and
// column of its source position ("project:///Pulumi.yaml#9,3"). A resource
// without one comes after those with one.
type position struct {
	known     bool
	file      string
	line, col int
}

func programPosition(st *resource.State) position {
	if st == nil || st.SourcePosition == "" {
		return position{}
	}
	file, lc, _ := strings.Cut(st.SourcePosition, "#")
	line, col, _ := strings.Cut(lc, ",")
	p := position{known: true, file: file}
	p.line, _ = strconv.Atoi(line)
	p.col, _ = strconv.Atoi(col)
	return p
}

// compare returns -1, 0 or 1 as p comes before, with or after q.
func (p position) compare(q position) int {
	if p.known != q.known {
		if p.known {
			return -1
		}
		return 1
	}
	return cmp.Or(strings.Compare(p.file, q.file), cmp.Compare(p.line, q.line), cmp.Compare(p.col, q.col))
}
