package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

// TestSourceProblemsOnce: a bad value is one problem, reported once at its file:line, though many
// files take their decision from it: a list page's own value (the list page and each of its pager
// pages), a cascade's (every page below it, which share its inputs); likewise its warning (SPEC
// §2: a problem is reported once).
func TestSourceProblemsOnce(t *testing.T) {
	tests := []struct{ name, list string }{
		{"list page", "---\ntitle: Blog\nrobots: noodp, max-snippet:lots\n---\nThe blog.\n"},
		{"cascade", "---\ntitle: Blog\ncascade:\n  robots: noodp, max-snippet:lots\n---\nThe blog.\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := standin.Synthetic(dir, 300, 1); err != nil {
				t.Fatal(err)
			}
			writeTree(t, dir, map[string]string{"content/blog/_index.md": tc.list})
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
			if !strings.Contains(err.Error(), "content/blog/_index.md:") {
				t.Errorf("error %v does not name content/blog/_index.md", err)
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
		})
	}
}
