package pipeline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/safefs"
	"github.com/robotsmith/robotsmith/watch"
)

// copyTree copies the regular files under src to dst, as a kill would leave them on disk.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeTree(t, dst, map[string]string{filepath.ToSlash(rel): string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// ownNames lists robotsmith's own temporary files and journal (safefs.Own) under dir.
func ownNames(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && safefs.Own(d.Name()) {
			names = append(names, p)
		}
		return nil
	})
	return names
}

// TestLiveBatchIsOneTransaction: a batch writes through the build's transaction (safefs): until
// its commit no page of the output has changed, and a watch killed there (the output copied as a
// kill leaves it: the journal and the temporary files beside the pages) leaves a folder that the
// next command recovers to the generator's pages, with none of robotsmith's own files left.
func TestLiveBatchIsOneTransaction(t *testing.T) {
	dir := liveSite(t)
	l, _ := startLive(t, dir)
	page := filepath.Join(dir, "public/blog/a/index.html")
	writeTree(t, dir, map[string]string{"public/blog/a/index.html": themePage("A2")})
	killed := t.TempDir()
	l.afterStep = func() {
		if holds(t, page, "<!-- robotsmith -->") {
			t.Error("the page was put in place before the batch's commit")
		}
		if len(ownNames(t, filepath.Join(dir, "public"))) == 0 {
			t.Error("no journal or temporary file while the batch is written: not written through safefs")
		}
		copyTree(t, dir, killed)
	}
	u := l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "blog/a/index.html", watch.Write)}})
	if len(u.Errs) > 0 || !slices.Equal(u.Wrote, []string{"blog/a/index.html"}) {
		t.Fatalf("the batch: %s (%v)", u.Line(), u.Errs)
	}
	if !holds(t, page, "<!-- robotsmith -->") {
		t.Error("the page was not put in place by the commit")
	}
	if left := ownNames(t, filepath.Join(dir, "public")); len(left) > 0 {
		t.Errorf("left after the batch: %q", left)
	}

	// The killed watch's folder: the next command (check) recovers it first.
	if len(ownNames(t, filepath.Join(killed, "public"))) == 0 {
		t.Fatal("the copy holds no journal: nothing to recover")
	}
	rep, err := Run(context.Background(), Options{Root: killed})
	if rep == nil {
		t.Fatalf("check after the kill: %v", err)
	}
	if !slices.ContainsFunc(texts(rep.Warnings), func(w string) bool {
		return strings.Contains(w, "removed") || strings.Contains(w, "undid") || strings.Contains(w, "undone")
	}) {
		t.Errorf("check did not say it recovered: %q", rep.Warnings)
	}
	if left := ownNames(t, filepath.Join(killed, "public")); len(left) > 0 {
		t.Errorf("left after the next command: %q", left)
	}
	if k := filepath.Join(killed, "public/blog/a/index.html"); !holds(t, k, "A2") || holds(t, k, "<!-- robotsmith -->") {
		t.Error("the killed batch's page is not the generator's, whole")
	}
}

// TestLiveSiteSteps: watch mode runs build's site-level steps: a sitemap the generator writes
// again is pruned again, a decision that changes prunes it, and a page's links keep pointing at
// the right files while files come and go (they name their targets by index).
func TestLiveSiteSteps(t *testing.T) {
	dir := liveSite(t)
	writeTree(t, dir, map[string]string{
		"public/blog/a/index.html": strings.Replace(themePage("A"), "<title>", `<link rel="canonical" href="/blog/c/"><title>`, 1),
		"content/blog/b.md":        "---\ntitle: B\nrobots: noindex\n---\nbeta\n",
	})
	l, _ := startLive(t, dir)
	ctx := context.Background()
	sitemap := filepath.Join(dir, "public/sitemap.xml")
	all := sitemapOf("/", "/blog/", "/blog/a/", "/blog/b/")

	target := func() string {
		t.Helper()
		i, ok := l.find("/blog/a/index.html")
		if !ok {
			t.Fatal("no record of blog/a")
		}
		ls := l.links.table.Of(&l.files[i])
		if len(ls) != 1 {
			t.Fatalf("blog/a has %d links, want 1", len(ls))
		}
		if to, ok := ls[0].Target(); ok {
			return l.files[to].Path()
		}
		return "missing " + l.links.table.MissingPath(ls[0])
	}
	if got := target(); got != "missing /blog/c/" {
		t.Errorf("the canonical before c exists: %s", got)
	}

	for _, tc := range []struct {
		name   string
		edit   func() []watch.Change
		listed []string // what the sitemap lists after
		target string   // the file blog/a's canonical points at
	}{
		{
			name: "the generator writes its sitemap",
			edit: func() []watch.Change {
				writeTree(t, dir, map[string]string{"public/sitemap.xml": all})
				return []watch.Change{change(t, l, outputRoot, "sitemap.xml", watch.Create)}
			},
			listed: []string{"/blog/a/"}, target: "missing /blog/c/",
		},
		{
			name: "a new page that the canonical names, and the sitemap written again",
			edit: func() []watch.Change {
				writeTree(t, dir, map[string]string{"public/blog/c/index.html": themePage("C"), "public/sitemap.xml": all})
				return []watch.Change{change(t, l, outputRoot, "blog/c/index.html", watch.Create), change(t, l, outputRoot, "sitemap.xml", watch.Write)}
			},
			listed: []string{"/blog/a/"}, target: "/blog/c/index.html",
		},
		{
			name: "a file before it in the list comes: the link follows",
			edit: func() []watch.Change {
				writeTree(t, dir, map[string]string{"public/blog/aa/index.html": themePage("AA")})
				return []watch.Change{change(t, l, outputRoot, "blog/aa/index.html", watch.Create)}
			},
			listed: []string{"/blog/a/"}, target: "/blog/c/index.html",
		},
		{
			name: "a front matter edit makes a noindex: the sitemap is pruned",
			edit: func() []watch.Change {
				writeTree(t, dir, map[string]string{"content/blog/a.md": "---\ntitle: A\nrobots: noindex\n---\nalpha\n"})
				return []watch.Change{change(t, l, contentRoot, "blog/a.md", watch.Write)}
			},
			listed: nil, target: "/blog/c/index.html",
		},
		{
			name: "the page the canonical names is removed",
			edit: func() []watch.Change {
				os.RemoveAll(filepath.Join(dir, "public/blog/c"))
				return []watch.Change{change(t, l, outputRoot, "blog/c", watch.Remove)}
			},
			listed: nil, target: "missing /blog/c/",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := l.Apply(ctx, watch.Batch{Changes: tc.edit()})
			t.Log(u.Line())
			if len(u.Errs) > 0 {
				t.Fatalf("errors: %v", u.Errs)
			}
			b, _ := os.ReadFile(sitemap)
			for _, p := range []string{"/", "/blog/", "/blog/a/", "/blog/b/"} {
				want := p != "/blog/b/" && (p != "/blog/a/" || slices.Contains(tc.listed, p))
				if got := strings.Contains(string(b), "https://example.org"+p+"<"); got != want {
					t.Errorf("the sitemap lists %s: %v, want %v", p, got, want)
				}
			}
			if got := target(); got != tc.target {
				t.Errorf("blog/a's canonical points at %s, want %s", got, tc.target)
			}
		})
	}
}
