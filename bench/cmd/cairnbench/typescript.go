package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// nodeModules is the node_modules folder of the pinned npm packages that
// TypeScript stacks run with (make nodejs-deps installs them).
const nodeModules = "testdata/nodejs/node_modules"

// writeTypeScript writes the stack as a TypeScript program on Pulumi's
// Node.js SDK, with the pinned npm packages linked in: the independent
// random strings of the YAML stacks, declared by type token.
func (s stack) writeTypeScript(dir, nodeModules string) error {
	lengths := make([]string, s.n)
	for i := range s.n {
		lengths[i] = fmt.Sprint(s.length(i))
	}
	files := map[string]string{
		"Pulumi.yaml":  fmt.Sprintf("name: %s\nruntime: nodejs\n", project),
		"package.json": `{"name": "bench", "main": "index.ts"}`,
		"tsconfig.json": `{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs",
	"moduleResolution": "node", "skipLibCheck": true}, "files": ["index.ts"]}`,
		"index.ts": `import * as pulumi from "@pulumi/pulumi";

class RandomString extends pulumi.CustomResource {
    constructor(name: string, length: number) {
        super("random:index/randomString:RandomString", name, { length });
    }
}

const lengths = [` + strings.Join(lengths, ", ") + `];
lengths.forEach((length, i) => new RandomString("r" + i, length));
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	link := filepath.Join(dir, "node_modules")
	if _, err := os.Lstat(link); err == nil {
		return nil
	}
	return os.Symlink(nodeModules, link)
}
