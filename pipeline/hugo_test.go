package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// hugoBinary finds Hugo v0.146 or newer as the site package's integration tests do: $HUGO, the
// tools cache that .ci/run fills, or PATH.
func hugoBinary(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("HUGO"), filepath.Join(os.Getenv("HOME"), ".cache", "robotsmith", "tools", "bin", "hugo")}
	if d := os.Getenv("ROBOTSMITH_TOOLS"); d != "" {
		cands = append(cands, filepath.Join(d, "bin", "hugo"))
	}
	if p, err := exec.LookPath("hugo"); err == nil {
		cands = append(cands, p)
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		out, err := exec.Command(c, "version").Output()
		if err != nil {
			continue
		}
		if m := regexp.MustCompile(`v0\.(\d+)\.`).FindSubmatch(out); m != nil {
			if minor, _ := strconv.Atoi(string(m[1])); minor >= 146 {
				return c
			}
		}
	}
	testtool.Missing(t, "hugo v0.146 or newer not found: run .ci/run, or CGO_ENABLED=0 go install github.com/gohugoio/hugo@v0.165.0")
	return ""
}

// TestPagerOfListWithURL: under uglyURLs a pager page names its list page by file (/rust-lang/index.html)
// while the list's URL, set with `url`, is /rust-lang/; the pager must still take the list's decision
// (SPEC §2: "a paginated list's page/N/ pages take the decision of the list page they continue").
func TestPagerOfListWithURL(t *testing.T) {
	hugo := hugoBinary(t)
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("..", "site", "testdata", "hugo", "nokinds"), dir)
	writeTree(t, dir, map[string]string{
		"content/tags/rust/_index.md": "---\ntitle: Rust\nurl: /rust-lang/\nrobots: noarchive\n---\nbody\n",
		"content/posts/b.md":          "---\ntitle: B\ntags: [go, rust]\n---\nbody\n",
	})
	if out, err := exec.Command(hugo, "--quiet", "-s", dir).CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	es, err := Explain(context.Background(), Options{Root: dir}, []string{"/rust-lang/p/n/2/"})
	if err != nil {
		t.Fatal(err)
	}
	e := es[0]
	if e.Source != "content/tags/rust/_index.md" {
		t.Errorf("pager's source page: got %q, want content/tags/rust/_index.md", e.Source)
	}
	found := false
	for _, v := range e.Agents[0].Values {
		found = found || v.Token == "noarchive"
	}
	if !found {
		t.Errorf("pager's robots: got %+v, want the list's noarchive", e.Agents[0].Values)
	}
}
