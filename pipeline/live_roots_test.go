package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/watch"
)

// fixtureSites are every site the tests keep: the site package's Hugo and Jekyll fixtures, the
// watch fixtures, the sample site.
func fixtureSites(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, parent := range []string{"../site/testdata/hugo", "../site/testdata/jekyll", "../testdata/watch"} {
		entries, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(parent, e.Name()))
			}
		}
	}
	return append(dirs, "../sample-site")
}

// TestWatchCoversSources: on every fixture site, what watch mode watches (Live.Watch) is derived
// from what the site's map reads (site.Site.Sources, which TestSources checks against what the
// mapping read), and covers it: each source is a watched root or under a watched folder, a
// content or collection folder as a source (its changes are mapped again), a configuration or
// module file or folder as configuration (a new plan). And nothing else is watched but the output
// folder, robotsmith's configuration, and, for a source not yet on disk whose folder is not either,
// the first missing folder on its way (config/ for config/_default), so that the source is seen
// when it is made.
func TestWatchCoversSources(t *testing.T) {
	for _, dir := range fixtureSites(t) {
		t.Run(filepath.ToSlash(dir), func(t *testing.T) {
			l, err := NewLive(context.Background(), Options{Root: dir}, watch.NewOwn())
			if err != nil {
				t.Fatal(err)
			}
			roots, _ := l.Watch()
			if len(roots) != len(l.roots) {
				t.Fatalf("Watch gives %d roots, Live has %d", len(roots), len(l.roots))
			}
			// Every root's parent folder exists: watch.New needs it.
			for _, r := range roots {
				if fi, err := os.Stat(filepath.Dir(r)); err != nil || !fi.IsDir() {
					t.Errorf("root %s: its parent folder is not there (%v)", r, err)
				}
			}
			srcs := l.plan.Site().Sources()
			for _, src := range srcs {
				abs := absPath(src.Path)
				ri := deepestRoot(l.roots, abs)
				if ri < 0 {
					t.Errorf("%s (%s) is not watched; watched: %q", src.Path, src.Kind, roots)
					continue
				}
				want := configRoot
				if src.Kind == site.SourceContent || src.Kind == site.SourceCollection {
					want = contentRoot
				}
				if got := l.roots[ri].kind; got != want {
					t.Errorf("%s (%s) is watched under %s as root kind %d, want %d", src.Path, src.Kind, l.roots[ri].path, got, want)
				}
			}
			out := absPath(l.where.dir)
			for _, r := range l.roots {
				switch {
				case r.path == out && r.kind == outputRoot:
				case r.kind == configRoot && isRobotsmithConfig(l, r.path):
				case slices.ContainsFunc(srcs, func(s site.Source) bool { return absPath(s.Path) == r.path }):
				case missing(r.path) && slices.ContainsFunc(srcs, func(s site.Source) bool { return within(r.path, absPath(s.Path)) && missing(s.Path) }):
				default:
					t.Errorf("root %s (kind %d) is neither the output, robotsmith's configuration, nor a source or the way to one; sources: %v", r.path, r.kind, srcs)
				}
			}
		})
	}
}

// deepestRoot is the index of the deepest root p is or is under, as the watcher finds it (-1:
// none).
func deepestRoot(roots []liveRoot, p string) int {
	best := -1
	for i, r := range roots {
		if within(r.path, p) && (best < 0 || len(r.path) > len(roots[best].path)) {
			best = i
		}
	}
	return best
}

func isRobotsmithConfig(l *Live, p string) bool {
	if f := l.plan.Config().File; f != "" {
		return absPath(f) == p
	}
	return slices.Contains(config.Names(), filepath.Base(p))
}

func missing(p string) bool {
	_, err := os.Stat(p)
	return errors.Is(err, fs.ErrNotExist)
}

// TestLiveFollowsSources: a configuration change that changes the folders the map reads (a
// language with its own content folder added in config/_default, as hugo-book's layout does)
// changes what is watched (Update.Roots, then Live.Watch), and a front matter edit in the new folder
// reaches its page.
func TestLiveFollowsSources(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"config/_default/hugo.toml":      "baseURL = \"https://example.org/\"\ntitle = \"t\"\ndisableKinds = [\"taxonomy\", \"term\", \"rss\", \"sitemap\"]\ndefaultContentLanguage = \"en\"\n",
		"config/_default/languages.toml": "[en]\ncontentDir = \"content.en\"\nweight = 1\n",
		"content.en/_index.md":           "---\ntitle: Home\n---\n",
		"content.en/a.md":                "---\ntitle: A\n---\n",
		"public/index.html":              themePage("Home"),
		"public/a/index.html":            themePage("A"),
	})
	l, _ := startLive(t, dir)
	roots, _ := l.Watch()
	fr := filepath.Join(dir, "content.fr")
	if slices.Contains(roots, fr) {
		t.Fatalf("content.fr watched before it is configured: %q", roots)
	}
	// The author adds French, its folder and a page, and Hugo writes it.
	writeTree(t, dir, map[string]string{
		"config/_default/languages.toml": "[en]\ncontentDir = \"content.en\"\nweight = 1\n[fr]\ncontentDir = \"content.fr\"\nweight = 2\n",
		"content.fr/_index.md":           "---\ntitle: Accueil\n---\n",
		"content.fr/b.md":                "---\ntitle: B\n---\n",
		"public/fr/index.html":           themePage("Accueil"),
		"public/fr/b/index.html":         themePage("B"),
	})
	cfg := filepath.Join(dir, "config", "_default", "languages.toml")
	ri := deepestRoot(l.roots, cfg)
	if ri < 0 {
		t.Fatalf("%s is not watched: %q", cfg, roots)
	}
	// One batch: the configuration, and the pages Hugo wrote for it.
	b := watch.Batch{Changes: []watch.Change{{Path: cfg, Root: ri, Rel: "languages.toml", Op: watch.Write}}}
	for _, rel := range []string{"fr", "fr/index.html", "fr/b", "fr/b/index.html"} {
		b.Changes = append(b.Changes, watch.Change{Path: filepath.Join(dir, "public", filepath.FromSlash(rel)), Root: 0, Rel: rel, Op: watch.Create, Dir: filepath.Ext(rel) == ""})
	}
	u := l.Apply(context.Background(), b)
	if len(u.Errs) > 0 {
		t.Fatal(u.Errs)
	}
	if page := filepath.Join(dir, "public", "fr", "b", "index.html"); !holds(t, page, publicTag) {
		b, _ := os.ReadFile(page)
		t.Errorf("after the configuration change, %s =\n%s\nwant robotsmith's tags", page, b)
	}
	if !u.Roots {
		t.Errorf("Update.Roots = false after a language with its own folder was added")
	}
	if roots, _ = l.Watch(); !slices.Contains(roots, fr) {
		t.Fatalf("after the change, Watch() = %q, want %s in it", roots, fr)
	}
	// An edit in the new folder is a source's: it reaches its page.
	writeTree(t, dir, map[string]string{"content.fr/b.md": "---\ntitle: B\nrobots: noindex\n---\n"})
	p := filepath.Join(fr, "b.md")
	ri = deepestRoot(l.roots, p)
	if ri < 0 || l.roots[ri].kind != contentRoot {
		t.Fatalf("%s: not under a content root: %+v", p, l.roots)
	}
	u = l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{{Path: p, Root: ri, Rel: "b.md", Op: watch.Write}}})
	if len(u.Errs) > 0 {
		t.Fatal(u.Errs)
	}
	if page := filepath.Join(dir, "public", "fr", "b", "index.html"); !holds(t, page, noindexPrefix) {
		b, _ := os.ReadFile(page)
		t.Errorf("after the edit, %s =\n%s\nwant a noindex tag", page, b)
	}
}
