package backend

// OperationKind names the kind of an operation, as Pulumi's history does.
type OperationKind string

// The kinds of operations that change a stack.
const (
	KindUpdate  OperationKind = "update"
	KindRefresh OperationKind = "refresh"
	KindDestroy OperationKind = "destroy"
	KindImport  OperationKind = "import"
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
}
