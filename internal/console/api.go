package console

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/cairn-iac/cairn/engine/backend"
)

// errNoPlan answers GET /api/plan on a console started without a plan.
var errNoPlan = errors.New("the console was started without a plan (cairn console --plan FILE)")

// api serves an API call to a browser holding the token's cookie; without
// it, the answer is 401 and nothing else. h's errors are sent as
// {"error": …}: 404 for a stack that does not exist, 500 otherwise.
func (c *Console) api(h func(*http.Request) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !c.authorized(r) {
			writeError(w, http.StatusUnauthorized, "this console shows stacks only to a browser that opened the URL `cairn console` printed, with its token")
			return
		}
		v, err := h(r)
		switch {
		case errors.Is(err, backend.ErrStackNotFound) || errors.Is(err, errNoPlan):
			writeError(w, http.StatusNotFound, err.Error())
		case err != nil:
			writeError(w, http.StatusInternalServerError, err.Error())
		default:
			writeJSON(w, http.StatusOK, v)
		}
	})
}

// writeJSON sends an API response, which no cache keeps.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"error":"encoding the response failed"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(data)
}

// writeError sends an API error: {"error": message}.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]string{"error": message})
}

// stacks is GET /api/stacks.
func (c *Console) stacks(r *http.Request) (any, error) {
	sums, err := c.opts.Stacks.ListStacks(r.Context(), "")
	if err != nil {
		return nil, err
	}
	list := stackList{Backend: c.opts.Stacks.URL(), Stacks: []stackItem{}}
	if c.opts.Current.Name != "" {
		n := nameOf(c.opts.Current)
		list.Current = &n
	}
	for _, s := range sums {
		it := stackItem{stackName: nameOf(s.Ref), LastUpdate: timeOrNil(s.LastUpdate), Resources: s.Resources, Running: s.Lock}
		hist, err := c.opts.Stacks.History(r.Context(), s.Ref)
		if err = errors.Join(s.Err, err); err != nil {
			it.Error = err.Error()
		}
		if len(hist) > 0 {
			it.Last = &hist[0]
		}
		list.Stacks = append(list.Stacks, it)
	}
	return list, nil
}

// stack is GET /api/stacks/{project}/{stack}.
func (c *Console) stack(r *http.Request) (any, error) {
	ctx, ref := r.Context(), refOf(r)
	sum, err := c.summary(r, ref)
	if err != nil {
		return nil, err
	}
	snap, err := c.opts.Stacks.Snapshot(ctx, ref, sealed{})
	if err != nil {
		return nil, err
	}
	hist, err := c.opts.Stacks.History(ctx, ref)
	if err != nil {
		return nil, err
	}
	tags, err := c.opts.Stacks.Tags(ctx, ref)
	if err != nil {
		return nil, err
	}
	res, pending := resourcesOf(snap)
	v := stackView{stackName: nameOf(ref), Version: version(sum, res, pending), LastUpdate: timeOrNil(sum.LastUpdate),
		Running: sum.Lock, Tags: tags, Outputs: map[string]any{}, Resources: res, PendingOperations: pending,
		History: hist, Plan: c.plan != nil && ref == c.opts.Current}
	if root := snap.Root(); root != nil {
		v.Outputs = encodeMap(root.Outputs)
	}
	if v.History == nil {
		v.History = []backend.HistoryRecord{}
	}
	return v, nil
}

// version is GET /api/stacks/{project}/{stack}/version: {"version": …},
// which the stack's pages poll to refresh when it changes.
func (c *Console) version(r *http.Request) (any, error) {
	ref := refOf(r)
	sum, err := c.summary(r, ref)
	if err != nil {
		return nil, err
	}
	var res []resourceView
	var pending []pendingView
	if sum.Lock != nil {
		snap, err := c.opts.Stacks.Snapshot(r.Context(), ref, sealed{})
		if err != nil {
			return nil, err
		}
		res, pending = resourcesOf(snap)
	}
	return map[string]string{"version": version(sum, res, pending)}, nil
}

// version fingerprints what a stack's pages show: when its state was last
// written, how many resources it has and who holds its lock; while its lock
// is held, also its resources and pending operations as the running
// operation's journal has them, which change before the state is written.
func version(sum backend.StackSummary, res []resourceView, pending []pendingView) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d %d\n", sum.LastUpdate.UnixNano(), sum.Resources)
	if sum.Lock != nil {
		fmt.Fprintf(h, "%s\n", sum.Lock)
		json.NewEncoder(h).Encode([]any{res, pending})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// planChanges is GET /api/plan.
func (c *Console) planChanges(r *http.Request) (any, error) {
	if c.plan == nil {
		return nil, errNoPlan
	}
	snap, err := c.opts.Stacks.Snapshot(r.Context(), c.opts.Current, sealed{})
	if err != nil {
		return nil, err
	}
	return viewPlan(c.plan, c.opts.PlanFile, snap), nil
}

// refOf is the stack a request names.
func refOf(r *http.Request) backend.StackRef {
	return backend.StackRef{Project: r.PathValue("project"), Name: r.PathValue("stack")}
}

// summary is the stack's entry in the backend's list of its project's
// stacks.
func (c *Console) summary(r *http.Request, ref backend.StackRef) (backend.StackSummary, error) {
	if err := ref.Validate(); err != nil {
		return backend.StackSummary{}, fmt.Errorf("%w: %v", backend.ErrStackNotFound, err)
	}
	sums, err := c.opts.Stacks.ListStacks(r.Context(), ref.Project)
	if err != nil {
		return backend.StackSummary{}, err
	}
	for _, s := range sums {
		if s.Ref == ref {
			return s, nil
		}
	}
	return backend.StackSummary{}, fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
}
