package yaml_test

import (
	"fmt"

	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/langtest"
)

// TestStash runs Pulumi's l1-builtin-stash program twice: the Stash's
// output is its input of the first update, and stays so when the input
// changes on the second.
func TestStash(t *testing.T) {
	const program = `name: roundtrip
runtime: yaml
resources:
  myStash:
    type: pulumi:Stash
    properties:
      input: %s
outputs:
  stashInput: ${myStash.input}
  stashOutput: ${myStash.output}
`
	stashed := resource.FromGo(map[string]any{"key": []any{"value", "s"}, "": false})
	s := langtest.NewStack(t, load)
	s.Write("Pulumi.yaml", fmt.Sprintf(program, `{key: [value, s], "": false}`))
	langtest.Equal(t, "first up", s.Up(), []string{"create default", "create myStash", "create roundtrip-test"})
	langtest.Equal(t, "resources", len(s.Snap.Resources), 3)
	langtest.Equal(t, "stack outputs", s.Find("roundtrip-test").Outputs, resource.Map{"stashInput": stashed, "stashOutput": stashed})
	langtest.Equal(t, "stash inputs", s.Find("myStash").Inputs, resource.Map{"input": stashed})
	langtest.Equal(t, "stash outputs", s.Find("myStash").Outputs, resource.Map{"input": stashed, "output": stashed})

	s.Write("Pulumi.yaml", fmt.Sprintf(program, "ignored"))
	langtest.Equal(t, "second up", s.Up(), []string{"update myStash"})
	ignored := resource.String("ignored")
	langtest.Equal(t, "resources", len(s.Snap.Resources), 3)
	langtest.Equal(t, "stack outputs", s.Find("roundtrip-test").Outputs, resource.Map{"stashInput": ignored, "stashOutput": stashed})
	langtest.Equal(t, "stash inputs", s.Find("myStash").Inputs, resource.Map{"input": ignored})
	langtest.Equal(t, "stash outputs", s.Find("myStash").Outputs, resource.Map{"input": ignored, "output": stashed})
}
