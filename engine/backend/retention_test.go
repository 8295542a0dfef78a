package backend

import (
	"slices"
	"testing"
)

func TestVersionRange(t *testing.T) {
	for _, tc := range []struct {
		versions []int
		want     string
	}{
		{[]int{3}, "3"},
		{[]int{1, 2, 3, 4}, "1 to 4"},
		{[]int{1, 3, 4}, "1, 3, 4"},
	} {
		if got := VersionRange(tc.versions); got != tc.want {
			t.Errorf("VersionRange(%v) = %q, want %q", tc.versions, got, tc.want)
		}
	}
}

// An archive's versions keep their numbers, pruned or not; records
// without one (Pulumi's) follow the one before.
func TestArchiveVersionNumbers(t *testing.T) {
	a := &Archive{}
	for _, v := range []int{7, 8, 0, 0, 12} {
		a.Versions = append(a.Versions, ArchivedVersion{Record: HistoryRecord{Version: v}})
	}
	if got, want := a.VersionNumbers(), []int{7, 8, 9, 10, 12}; !slices.Equal(got, want) {
		t.Errorf("VersionNumbers = %v, want %v", got, want)
	}
}
