// Package testtool is for integration tests whose real tool (Hugo, Jekyll, wrangler, netlify) may be
// missing on a developer's machine.
//
// Usage:
//
//	if _, err := exec.LookPath("jekyll"); err != nil {
//		testtool.Missing(t, "jekyll not found: apt-get install jekyll")
//	}
//
// Missing skips the test with its message, except where ROBOTSMITH_REQUIRE_TOOLS is set (as .ci/run
// sets it), where a missing tool fails the test: CI must run every integration test.
package testtool

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// RequireEnv is the environment variable that turns a missing tool into a failure.
const RequireEnv = "ROBOTSMITH_REQUIRE_TOOLS"

// Missing skips t (or fails it, with RequireEnv set) saying what is missing and how to install it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s (%s is set: CI needs every tool)", msg, RequireEnv)
	}
	t.Skip(msg)
}

// CopyTree copies the folder src to dst (which may exist), leaving out the folders named in skip
// (relative to src, slash-separated), as tests do to work on a copy of the sample site. A file that
// its owner may run stays executable (a release's binary packed again from the copy).
func CopyTree(t testing.TB, src, dst string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, filepath.ToSlash(rel)) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info.Mode()&0o100 != 0 {
			mode = 0o755
		}
		return os.WriteFile(filepath.Join(dst, rel), b, mode)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}

// HugoVersion is the Hugo release the project's fixtures are generated and checked with.
const HugoVersion = "v0.165.0"

// Hugo finds Hugo: $HUGO, else where .ci/run installs it (~/.cache/robotsmith/tools/bin), else
// hugo on PATH. It returns the first that runs, with its version ("v0.165.0"), and calls Missing
// when none does.
func Hugo(t testing.TB) (path, version string) {
	t.Helper()
	var cands []string
	if h := os.Getenv("HUGO"); h != "" {
		cands = append(cands, h)
	}
	if home, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(home, ".cache", "robotsmith", "tools", "bin", "hugo"))
	}
	if p, err := exec.LookPath("hugo"); err == nil {
		cands = append(cands, p)
	}
	for _, c := range cands {
		out, err := exec.Command(c, "version").Output()
		if err != nil {
			continue
		}
		if v := regexp.MustCompile(`v\d+\.\d+\.\d+`).Find(out); v != nil {
			return c, string(v)
		}
		Missing(t, "hugo at %s does not say its version: %s", c, bytes.TrimSpace(out))
	}
	Missing(t, "hugo not found: run .ci/run, or CGO_ENABLED=0 go install github.com/gohugoio/hugo@%s and set $HUGO", HugoVersion)
	return "", ""
}

// Jekyll finds Jekyll: $JEKYLL, else jekyll on PATH, and calls Missing when there is none.
func Jekyll(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("JEKYLL"); p != "" {
		return p
	}
	p, err := exec.LookPath("jekyll")
	if err != nil {
		Missing(t, "jekyll not found: install it with `apt-get install jekyll` (as .ci/run does) or set $JEKYLL")
	}
	return p
}
