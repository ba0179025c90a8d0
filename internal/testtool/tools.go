package testtool

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// HugoInstall says how to get the Hugo the integration tests need.
const HugoInstall = "run .ci/run, or CGO_ENABLED=0 go install github.com/gohugoio/hugo@v0.165.0 and set $HUGO"

// Hugo finds Hugo v0.146 or newer: $HUGO, the tools cache that .ci/run fills ($ROBOTSMITH_TOOLS,
// else ~/.cache/robotsmith/tools), or PATH. Without one it calls Missing.
func Hugo(t testing.TB) string {
	t.Helper()
	cands := []string{os.Getenv("HUGO")}
	if d := os.Getenv("ROBOTSMITH_TOOLS"); d != "" {
		cands = append(cands, filepath.Join(d, "bin", "hugo"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(home, ".cache", "robotsmith", "tools", "bin", "hugo"))
	}
	if p, err := exec.LookPath("hugo"); err == nil {
		cands = append(cands, p)
	}
	version := regexp.MustCompile(`v0\.(\d+)\.`)
	for _, c := range cands {
		if c == "" {
			continue
		}
		out, err := exec.Command(c, "version").Output()
		if err != nil {
			continue
		}
		if m := version.FindSubmatch(out); m != nil {
			if minor, _ := strconv.Atoi(string(m[1])); minor >= 146 {
				return c
			}
		}
	}
	Missing(t, "hugo v0.146 or newer not found: %s", HugoInstall)
	return ""
}

// Jekyll finds Jekyll: $JEKYLL, else jekyll on PATH. Without it it calls Missing.
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
