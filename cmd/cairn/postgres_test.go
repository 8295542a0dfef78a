package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/internal/pgtest"
)

// backendScenarios are the CLI scenarios that hold for every backend: they
// run again on PostgreSQL. The scenarios named postgres_*.txtar run only
// there.
var backendScenarios = []string{
	"expect_no_changes",
	"import_command",
	"locked_stack",
	"pending_cleared_after_kill",
	"refresh",
	"retention_prune",
	"retention_stack_rm",
	"secrets_command_output",
	"secrets_masked",
	"secrets_sweep",
	"stack_export_import",
	"stack_import_fresh",
	"stack_import_other_project",
	"stack_init_select",
	"stack_ls_rm_history",
	"stack_name_rules",
	"stack_no_implicit_create",
	"stack_reference",
	"stack_rename",
	"stack_tag",
	"state_delete_unprotect",
	"state_edit_keeps_seeds",
	"target_replace",
	"up_preview_destroy",
}

// TestScriptsPostgres runs the backend scenarios with CAIRN_BACKEND_URL
// naming a database of its own on a PostgreSQL server the test starts.
func TestScriptsPostgres(t *testing.T) {
	p := scriptParams(pgtest.New(t))
	dir := p.Dir
	p.Dir = ""
	for _, name := range backendScenarios {
		p.Files = append(p.Files, filepath.Join(dir, name+".txtar"))
	}
	more, err := filepath.Glob(filepath.Join(dir, "postgres_*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	p.Files = append(p.Files, more...)
	testscript.Run(t, p)
}
