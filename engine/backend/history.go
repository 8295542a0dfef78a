package backend

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// OperationKind names the kind of an operation, as Pulumi's history does.
type OperationKind string

// The kinds of operations that change a stack.
const (
	KindUpdate  OperationKind = "update"
	KindRefresh OperationKind = "refresh"
	KindDestroy OperationKind = "destroy"
	KindImport  OperationKind = "import"
	KindRename  OperationKind = "rename"
)

// Result is how an operation ended.
type Result string

// The results of operations. ResultInterrupted is an operation whose
// process died before it finished; its journal was recovered later.
const (
	ResultSucceeded   Result = "succeeded"
	ResultFailed      Result = "failed"
	ResultInterrupted Result = "interrupted"
)

// HistoryRecord is one operation in a stack's history. Its JSON form is
// Pulumi's UpdateInfo, times in Unix seconds.
type HistoryRecord struct {
	Kind      OperationKind `json:"kind"`
	StartTime int64         `json:"startTime"`
	EndTime   int64         `json:"endTime"`
	Message   string        `json:"message"`
	// Version numbers the stack's operations from 1.
	Version int    `json:"version"`
	Result  Result `json:"result"`
	// Error is why the operation failed.
	Error string `json:"error,omitempty"`
	// ResourceChanges counts steps by kind ("create", "update", …).
	ResourceChanges map[string]int `json:"resourceChanges,omitempty"`
	// Policies are the policy violations the operation found.
	Policies []policy.Event `json:"policyViolations,omitempty"`
}

// NewRecord is the history record of an operation that began at started
// and ended as sum says; its message and error are masked.
func NewRecord(info OperationInfo, started time.Time, sum Summary) HistoryRecord {
	mask := info.Masker.Mask
	rec := HistoryRecord{Kind: info.Kind, Message: mask(info.Message), StartTime: started.Unix(), EndTime: time.Now().Unix(),
		Result: ResultSucceeded, ResourceChanges: map[string]int{}}
	if sum.Err != nil {
		rec.Result, rec.Error = ResultFailed, mask(sum.Err.Error())
	}
	for op, n := range sum.Changes {
		if n > 0 {
			rec.ResourceChanges[op] = n
		}
	}
	for _, v := range sum.Violations {
		v.Message = mask(v.Message)
		rec.Policies = append(rec.Policies, v.Event())
	}
	return rec
}

// Recovered is the warning and the history record for the journal, with
// header h, of an operation on ref that did not finish, once it has been
// replayed into current.
func Recovered(ref StackRef, h JournalHeader, current *snapshot.Snapshot) (string, HistoryRecord) {
	var pending []string
	for _, op := range current.PendingOperations {
		pending = append(pending, fmt.Sprintf("\n  * %s, interrupted while %s", op.Resource.URN, op.Type))
	}
	warning := fmt.Sprintf("the previous %s of stack %s (started %s) did not finish; its journal was recovered: "+
		"its completed steps are kept, and the stack has %d pending operations:%s",
		h.Kind, ref, h.Started.Format(time.RFC3339), len(pending), strings.Join(pending, ""))
	rec := HistoryRecord{Kind: h.Kind, Message: h.Message, StartTime: h.Started.Unix(), EndTime: time.Now().Unix(),
		Result: ResultInterrupted, Error: "the process stopped before the operation finished"}
	return warning, rec
}

// RenameRecord is the history record of a stack's rename.
func RenameRecord(from, to StackRef) HistoryRecord {
	now := time.Now().Unix()
	return HistoryRecord{Kind: KindRename, StartTime: now, EndTime: now, Result: ResultSucceeded,
		Message: "renamed stack " + from.Name + " to " + to.Name}
}

// ImportRecord is the history record of an import or a restore.
func ImportRecord(message string) HistoryRecord {
	now := time.Now().Unix()
	return HistoryRecord{Kind: KindImport, StartTime: now, EndTime: now, Result: ResultSucceeded, Message: message}
}
