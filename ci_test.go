package main

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCIRunsGatedTests: a test that runs only when an environment variable asks for it (the long
// kill tests wait for ROBOTSMITH_LONG) runs in CI: .ci/run sets every variable such a test skips
// without. A test whose variable no run sets is a test that never runs: the long kill tests, which
// prove that a build killed at any moment leaves a site the next build makes whole, did not run in
// CI until .ci/run set ROBOTSMITH_LONG.
func TestCIRunsGatedTests(t *testing.T) {
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	// A test that skips unless the variable is set: Getenv of it compared with "", then t.Skip.
	gate := regexp.MustCompile(`os\.Getenv\("([A-Z0-9_]+)"\) == "" \{\s*t\.Skip`)
	gated := map[string][]string{} // variable: the test files that wait for it
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != ".":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range gate.FindAllSubmatch(src, -1) {
			gated[string(m[1])] = append(gated[string(m[1])], filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(gated["ROBOTSMITH_LONG"]) == 0 {
		t.Fatal("no test waits for ROBOTSMITH_LONG: the pattern this test looks for no longer matches the long kill tests")
	}
	// Set as a command's environment (NAME=1 go test ...) or exported.
	for _, name := range slices.Sorted(maps.Keys(gated)) {
		t.Run(name, func(t *testing.T) {
			set := regexp.MustCompile(`(?m)^(export )?([A-Z0-9_]+=\S* )*` + name + `=1\b`)
			if !set.Match(ci) {
				t.Errorf(".ci/run never sets %s=1, which %s wait for: they never run in CI", name, strings.Join(gated[name], ", "))
			}
		})
	}
}
