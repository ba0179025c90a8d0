package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/sample-site/standin"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
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
			for _, w := range texts(rep.Warnings) {
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

// TestSourceProblemsOnceHugo builds a site with the real Hugo, in which a list page has a pager
// page and other output formats (JSON, RSS, a JSON pager page) and a page has three (HTML, AMP,
// Markdown): the list's bad value is one error and its obsolete value one warning, the page's
// misspelt key one warning, each at its file:line, however many files take their decision.
func TestSourceProblemsOnceHugo(t *testing.T) {
	hugo := hugoBinary(t)
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("..", "site", "testdata", "hugo", "formats"), dir)
	cmd := exec.Command(hugo, "--quiet")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	for _, f := range []string{"blog/page/2/index.html", "blog/page/2/index.json", "blog/index.json", "amp/blog/first/index.html", "blog/first.md"} {
		if _, err := os.Stat(filepath.Join(dir, "public", filepath.FromSlash(f))); err != nil {
			t.Fatalf("hugo wrote no %s to test with: %v", f, err)
		}
	}
	writeTree(t, dir, map[string]string{
		"content/blog/_index.md": "---\ntitle: Blog\nrobots: noodp, max-snippet:lots\n---\n",
		"content/blog/first.md":  "---\ntitle: First\ntags: [Go, Hugo Tips]\nseries: Intro\nnofolow: true\n---\nFirst.\n",
	})
	rep, err := Run(context.Background(), Options{Root: dir})
	if err == nil {
		t.Fatal("check: got no error, want the malformed max-snippet")
	}
	if n := strings.Count(err.Error(), `max-snippet: "lots"`); n != 1 || !strings.Contains(err.Error(), "content/blog/_index.md:3:") {
		t.Errorf("the malformed value is reported %d times, want once at content/blog/_index.md:3:\n%v", n, err)
	}
	for _, w := range []struct{ what, file string }{{`"noodp"`, "content/blog/_index.md:3:"}, {`"nofolow"`, "content/blog/first.md:5:"}} {
		var got []string
		for _, m := range texts(rep.Warnings) {
			if strings.Contains(m, w.what) {
				got = append(got, m)
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], w.file) {
			t.Errorf("%s: warned %q, want once at %s", w.what, got, w.file)
		}
	}
}
