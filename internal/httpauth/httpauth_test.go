package httpauth

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// hops answers each URL of its map with a redirect to the URL it maps
// to, or 200 when it maps to "", recording the Authorization each got.
type hops struct {
	next map[string]string
	auth map[string]string
}

func (h *hops) RoundTrip(req *http.Request) (*http.Response, error) {
	u := req.URL.String()
	h.auth[u] = req.Header.Get("Authorization")
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: req}
	if to := h.next[u]; to != "" {
		resp.StatusCode = http.StatusFound
		resp.Header.Set("Location", to)
	}
	return resp, nil
}

// TestGuardDropsOnDowngrade checks that once a chain of redirects leaves
// https, the Authorization header goes no further, even back to https on
// the same host, whatever keep says; and that keep decides otherwise.
func TestGuardDropsOnDowngrade(t *testing.T) {
	tests := []struct {
		name string
		next map[string]string
		keep bool
		want map[string]string // URL -> Authorization it gets
	}{
		{
			name: "https to http to https, same host",
			next: map[string]string{"https://h/1": "http://h/2", "http://h/2": "https://h/3"},
			keep: true,
			want: map[string]string{"https://h/1": "Bearer t", "http://h/2": "", "https://h/3": ""},
		},
		{
			name: "https to https, kept",
			next: map[string]string{"https://h/1": "https://h/2"},
			keep: true,
			want: map[string]string{"https://h/1": "Bearer t", "https://h/2": "Bearer t"},
		},
		{
			name: "https to https, not kept",
			next: map[string]string{"https://h/1": "https://h/2"},
			want: map[string]string{"https://h/1": "Bearer t", "https://h/2": ""},
		},
		{
			name: "http to http, kept",
			next: map[string]string{"http://h/1": "http://h/2"},
			keep: true,
			want: map[string]string{"http://h/1": "Bearer t", "http://h/2": "Bearer t"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &hops{next: tt.next, auth: map[string]string{}}
			c := Guard(&http.Client{Transport: h}, func(*http.Request, []*http.Request) bool { return tt.keep })
			first := "https://h/1"
			if _, ok := tt.next[first]; !ok {
				first = "http://h/1"
			}
			req, _ := http.NewRequest("GET", first, nil)
			req.Header.Set("Authorization", "Bearer t")
			if _, err := c.Do(req); err != nil {
				t.Fatal(err)
			}
			for u, want := range tt.want {
				if got, ok := h.auth[u]; !ok || got != want {
					t.Errorf("%s got Authorization %q (requested: %v), want %q", u, got, ok, want)
				}
			}
		})
	}
}
