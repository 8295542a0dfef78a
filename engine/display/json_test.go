package display

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSONGolden(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"json_preview", Options{JSON: true, Operation: OperationPreview, Config: map[string]string{"aws:region": "eu-west-1"}}},
		{"json_preview_secrets", Options{JSON: true, Operation: OperationPreview, ShowSecrets: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkGolden(t, tt.name, renderEvents(t, tt.opts, fxPreview()))
		})
	}
}

// TestJSONShape checks the document against Pulumi's field names.
func TestJSONShape(t *testing.T) {
	out := renderEvents(t, Options{JSON: true, Operation: OperationPreview}, fxPreview())
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("the output is not JSON: %v\n%s", err, out)
	}
	for _, field := range []string{"steps", "diagnostics", "duration", "changeSummary"} {
		if _, ok := doc[field]; !ok {
			t.Errorf("the document has no %q", field)
		}
	}
	steps := doc["steps"].([]any)
	ops := map[string]map[string]any{}
	for _, s := range steps {
		step := s.(map[string]any)
		for _, field := range []string{"op", "urn", "detailedDiff"} {
			if _, ok := step[field]; !ok {
				t.Errorf("step %v has no %q", step["urn"], field)
			}
		}
		ops[step["op"].(string)] = step
	}
	for _, op := range []string{"same", "create", "update", "replace", "delete", "import", "read"} {
		if ops[op] == nil {
			t.Errorf("no %s step", op)
		}
	}
	if ops["create-replacement"] != nil || ops["delete-replaced"] != nil {
		t.Errorf("the halves of a replacement are listed")
	}
	replace := ops["replace"]
	if got := replace["replaceReasons"]; len(got.([]any)) != 1 {
		t.Errorf("replaceReasons = %v, want [ami]", got)
	}
	newState := replace["newState"].(map[string]any)
	for _, field := range []string{"urn", "custom", "type", "inputs", "parent", "provider", "dependencies"} {
		if _, ok := newState[field]; !ok {
			t.Errorf("newState has no %q", field)
		}
	}
	summary := doc["changeSummary"].(map[string]any)
	if summary["create"] != 2.0 || summary["same"] != 2.0 {
		t.Errorf("changeSummary = %v", summary)
	}
	diag := doc["diagnostics"].([]any)[0].(map[string]any)
	if diag["severity"] != "warning" || !strings.HasPrefix(diag["message"].(string), "warning: ") {
		t.Errorf("diagnostic = %v", diag)
	}
	if strings.Contains(out, "s3cr3t") || !strings.Contains(out, `"value": "[secret]"`) {
		t.Errorf("secrets are not masked:\n%s", out)
	}
	if !strings.Contains(out, `"subnetGroup": "04da6b54-80e4-46f7-96ec-b56ff0331ba9"`) {
		t.Errorf("unknowns are not the unknown sentinel:\n%s", out)
	}
	if strings.Contains(out, "checked inputs") {
		t.Errorf("debug diagnostics are listed")
	}
}
