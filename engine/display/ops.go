package display

import "github.com/cairn-iac/cairn/engine/deploy"

// opStyle is how one step operation looks: its symbol, its colour and the
// words for it in progress, after it is done, and in a preview.
type opStyle struct {
	symbol  string
	color   string
	doing   string // "creating"
	done    string // "created"
	preview string // "create"
	label   string // the summary's "to create" / "created" stem
}

var opStyles = map[deploy.Op]opStyle{
	deploy.OpSame:                 {" ", dim, "checking", "unchanged", "unchanged", "unchanged"},
	deploy.OpCreate:               {"+", green, "creating", "created", "create", "create"},
	deploy.OpUpdate:               {"~", yellow, "updating", "updated", "update", "update"},
	deploy.OpDelete:               {"-", red, "deleting", "deleted", "delete", "delete"},
	deploy.OpReplace:              {"+-", magenta, "replacing", "replaced", "replace", "replace"},
	deploy.OpCreateReplacement:    {"++", green, "creating replacement", "created replacement", "create replacement", "create replacement"},
	deploy.OpDeleteReplaced:       {"--", red, "deleting original", "deleted original", "delete original", "delete original"},
	deploy.OpRead:                 {">", cyan, "reading", "read", "read", "read"},
	deploy.OpReadReplacement:      {">>", cyan, "reading for replacement", "read for replacement", "read for replacement", "read for replacement"},
	deploy.OpRefresh:              {"~", yellow, "refreshing", "refreshed", "refresh", "refresh"},
	deploy.OpDiscard:              {"-", red, "discarding", "discarded", "discard", "discard"},
	deploy.OpRemovePendingReplace: {"-", red, "removing pending replacement", "removed pending replacement", "remove pending replacement", "remove pending replacement"},
	deploy.OpImport:               {"=", cyan, "importing", "imported", "import", "import"},
	deploy.OpImportReplacement:    {"=>", cyan, "importing replacement", "imported replacement", "import replacement", "import replacement"},
}

// styleOf returns the style of op; an op this package does not know is
// shown by its name.
func styleOf(op deploy.Op) opStyle {
	if s, ok := opStyles[op]; ok {
		return s
	}
	return opStyle{symbol: "?", doing: string(op), done: string(op), preview: string(op), label: string(op)}
}

// summaryOrder is the order of the operations in summaries; same comes last
// as "unchanged".
var summaryOrder = []deploy.Op{
	deploy.OpCreate, deploy.OpUpdate, deploy.OpReplace, deploy.OpDelete,
	deploy.OpImport, deploy.OpImportReplacement, deploy.OpRead, deploy.OpReadReplacement,
	deploy.OpRefresh, deploy.OpDiscard, deploy.OpCreateReplacement, deploy.OpDeleteReplaced,
	deploy.OpRemovePendingReplace,
}

// rowOp is the operation a resource's row shows for a step: the halves of a
// replacement show as the replacement.
func rowOp(op deploy.Op) deploy.Op {
	switch op {
	case deploy.OpCreateReplacement, deploy.OpDeleteReplaced, deploy.OpRemovePendingReplace:
		return deploy.OpReplace
	}
	return op
}
