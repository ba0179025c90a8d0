package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// TestSourceProblemsOnce: a list page's bad value is one problem, reported once at its file:line,
// though the list page and each of its pager pages take their decision from it; likewise its
// warning (SPEC §2: a problem is reported once).
func TestSourceProblemsOnce(t *testing.T) {
	dir := t.TempDir()
	if err := standin.Synthetic(dir, 300, 1); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "content", "blog", "_index.md")
	writeTree(t, dir, map[string]string{"content/blog/_index.md": "---\ntitle: Blog\nrobots: noodp, max-snippet:lots\n---\nThe blog.\n"})
	if err := standin.Generate(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "blog", "page", "2", "index.html")); err != nil {
		t.Fatalf("the blog has no pager page to test with: %v", err)
	}
	rep, err := Run(context.Background(), Options{Root: dir})
	if err == nil {
		t.Fatal("check: got no error, want the malformed max-snippet")
	}
	if n := strings.Count(err.Error(), `max-snippet: "lots"`); n != 1 {
		t.Errorf("the malformed value is reported %d times, want once:\n%v", n, err)
	}
	if !strings.Contains(err.Error(), "content/blog/_index.md:3:") {
		t.Errorf("error %v does not name %s:3", err, list)
	}
	n := 0
	for _, w := range rep.Warnings {
		if strings.Contains(w, `"noodp"`) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the obsolete value warns %d times, want once: %q", n, rep.Warnings)
	}
}
