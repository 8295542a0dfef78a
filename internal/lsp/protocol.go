package lsp

// The types of the Language Server Protocol 3.17 that the server uses,
// with the protocol's JSON names. Positions count UTF-16 code units.

// Position is a zero-based line and character in a document.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is the span between two positions, the end excluded.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range of a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type initializeParams struct {
	ProcessID *int   `json:"processId"`
	RootURI   string `json:"rootUri"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type serverCapabilities struct {
	PositionEncoding           string                `json:"positionEncoding"`
	TextDocumentSync           textDocumentSync      `json:"textDocumentSync"`
	CompletionProvider         completionOptions     `json:"completionProvider"`
	HoverProvider              bool                  `json:"hoverProvider"`
	DefinitionProvider         bool                  `json:"definitionProvider"`
	DocumentSymbolProvider     bool                  `json:"documentSymbolProvider"`
	DocumentFormattingProvider bool                  `json:"documentFormattingProvider"`
	CodeActionProvider         codeActionOptions     `json:"codeActionProvider"`
	Workspace                  workspaceCapabilities `json:"workspace"`
}

type textDocumentSync struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"` // 2: incremental
	Save      saveOptions `json:"save"`
}

type saveOptions struct {
	IncludeText bool `json:"includeText"`
}

type completionOptions struct {
	TriggerCharacters []string `json:"triggerCharacters"`
}

type codeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

type workspaceCapabilities struct {
	WorkspaceFolders workspaceFoldersCapability `json:"workspaceFolders"`
}

type workspaceFoldersCapability struct {
	Supported bool `json:"supported"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

// contentChange replaces Range (the whole document when it is nil) with
// Text.
type contentChange struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didChangeWatchedFilesParams struct {
	Changes []fileEvent `json:"changes"`
}

type fileEvent struct {
	URI string `json:"uri"`
}

type cancelParams struct {
	ID any `json:"id"`
}

// Diagnostic is a problem found in a document.
type Diagnostic struct {
	Range    Range  `json:"range"`
	Severity int    `json:"severity"` // 1 error, 2 warning, 3 information, 4 hint
	Source   string `json:"source"`
	Message  string `json:"message"`
}

// The diagnostic severities.
const (
	severityError   = 1
	severityWarning = 2
)

// PublishDiagnosticsParams are the diagnostics of one document.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// CompletionList is the answer to a completion request.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// CompletionItem is one proposal; TextEdit replaces what was typed of it.
type CompletionItem struct {
	Label         string         `json:"label"`
	Kind          int            `json:"kind,omitempty"`
	Detail        string         `json:"detail,omitempty"`
	Documentation *MarkupContent `json:"documentation,omitempty"`
	SortText      string         `json:"sortText,omitempty"`
	FilterText    string         `json:"filterText,omitempty"`
	TextEdit      *TextEdit      `json:"textEdit,omitempty"`
	Deprecated    bool           `json:"deprecated,omitempty"`
}

// The completion item kinds the server uses.
const (
	kindFunction = 3
	kindField    = 5
	kindVariable = 6
	kindClass    = 7
	kindModule   = 9
	kindProperty = 10
	kindValue    = 12
	kindKeyword  = 14
	kindConstant = 21
)

// MarkupContent is Markdown shown to the user.
type MarkupContent struct {
	Kind  string `json:"kind"` // "markdown"
	Value string `json:"value"`
}

func markdown(s string) *MarkupContent { return &MarkupContent{Kind: "markdown", Value: s} }

// Hover is the answer to a hover request.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// TextEdit replaces a range of a document.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// DocumentSymbol is a declaration of a document.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// The symbol kinds the server uses.
const (
	symbolModule   = 2
	symbolProperty = 7
	symbolFunction = 12
	symbolVariable = 13
	symbolConstant = 14
	symbolObject   = 19
	symbolEvent    = 24
)

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
	} `json:"context"`
}

// CodeAction is a change the user may apply: here, a quick fix.
type CodeAction struct {
	Title       string        `json:"title"`
	Kind        string        `json:"kind"`
	Diagnostics []Diagnostic  `json:"diagnostics,omitempty"`
	IsPreferred bool          `json:"isPreferred,omitempty"`
	Edit        WorkspaceEdit `json:"edit"`
}

// WorkspaceEdit holds the edits of documents by URI.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}
