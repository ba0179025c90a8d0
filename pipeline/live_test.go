package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/watch"
)

// themePage is a page as the generator writes it: the theme's robots tag, no robotsmith block.
func themePage(title string) string {
	return "<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"robots\" content=\"index, follow\"><title>" +
		title + "</title></head><body>" + title + "</body></html>\n"
}

// liveSite is a small Hugo-layout site with its output as Hugo writes it (the test plays the
// generator): a home page, a blog section with two pages, a PDF that a rule makes noindex.
func liveSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"hugo.toml":                "baseURL = \"https://example.org/\"\ntitle = \"t\"\ndisableKinds = [\"taxonomy\", \"term\"]\n",
		"robotsmith.yaml":          "rules:\n  - path: /files/**\n    robots: noindex\n",
		"content/_index.md":        "---\ntitle: Home\n---\n",
		"content/blog/_index.md":   "---\ntitle: Blog\n---\n",
		"content/blog/a.md":        "---\ntitle: A\n---\nalpha\n",
		"content/blog/b.md":        "---\ntitle: B\n---\nbeta\n",
		"public/index.html":        themePage("Home"),
		"public/blog/index.html":   themePage("Blog"),
		"public/blog/a/index.html": themePage("A"),
		"public/blog/b/index.html": themePage("B"),
		"public/files/x.pdf":       "%PDF-1.4\n",
	})
	return dir
}

// startLive opens the site in dir and makes the first pass, which must succeed.
func startLive(t *testing.T, dir string) (*Live, *watch.Own) {
	t.Helper()
	own := watch.NewOwn()
	l, err := NewLive(context.Background(), Options{Root: dir}, own)
	if err != nil {
		t.Fatal(err)
	}
	u := l.Build(context.Background())
	if len(u.Errs) > 0 || !u.Full || u.Report == nil {
		t.Fatalf("first pass: %+v", u)
	}
	return l, own
}

// change is the watcher's Change for the file rel (slash path) under the root of kind k.
func change(t *testing.T, l *Live, k rootKind, rel string, op watch.Op) watch.Change {
	t.Helper()
	for i, r := range l.roots {
		if r.kind == k && (k != configRoot || filepath.Base(r.path) == filepath.Base(rel)) {
			p := r.path
			if k != configRoot {
				p = filepath.Join(r.path, filepath.FromSlash(rel))
			} else {
				rel = "."
			}
			return watch.Change{Path: p, Root: i, Rel: rel, Op: op}
		}
	}
	t.Fatalf("no root of kind %d for %s", k, rel)
	return watch.Change{}
}

func holds(t *testing.T, file, text string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), text)
}

const (
	noindexPrefix = `<meta name="robots" content="noindex`
	publicTag     = `<meta name="googlebot" content="index, follow`
)

func TestLiveBuild(t *testing.T) {
	dir := liveSite(t)
	l, own := startLive(t, dir)
	for _, f := range []string{"index.html", "blog/index.html", "blog/a/index.html", "blog/b/index.html"} {
		p := filepath.Join(dir, "public", f)
		if !holds(t, p, "<!-- robotsmith -->") || !holds(t, p, publicTag) {
			t.Errorf("%s: not processed", f)
		}
		if !own.Same(p) {
			t.Errorf("%s: the write is not recorded in Own", f)
		}
	}
	if !holds(t, filepath.Join(dir, "public/_headers"), "/files/x.pdf\n  X-Robots-Tag: noindex") {
		t.Errorf("_headers has no rule for the PDF")
	}
	roots, skip := l.Watch()
	// The output, robotsmith's configuration, then what the site's map reads (site.Sources), in
	// its order: Hugo's config file, its config/_default and config/production (through config/,
	// which is not there yet), the content folder.
	want := []string{
		filepath.Join(dir, "public"), filepath.Join(dir, "robotsmith.yaml"), filepath.Join(dir, "hugo.toml"), filepath.Join(dir, "config"), filepath.Join(dir, "content"),
	}
	if !slices.Equal(roots, want) || skip != nil {
		t.Errorf("Watch: got %q (skip %v), want %q", roots, skip != nil, want)
	}
}

// TestLiveApply: each kind of change, in one session, re-processes what it affects and nothing
// else, and names the pages whose indexability changed.
func TestLiveApply(t *testing.T) {
	dir := liveSite(t)
	l, own := startLive(t, dir)
	ctx := context.Background()
	public := func(rel string) string { return filepath.Join(dir, "public", filepath.FromSlash(rel)) }
	write := func(rel, body string) { writeTree(t, dir, map[string]string{rel: body}) }

	type step struct {
		name      string
		edit      func() []watch.Change
		processed int      // files through the step
		wrote     []string // files written
		flips     []string
		errs      []string // substrings of the errors, in order
		check     func(t *testing.T)
	}
	steps := []step{
		{
			name: "the generator rewrites one page",
			edit: func() []watch.Change {
				write("public/blog/a/index.html", themePage("A2"))
				return []watch.Change{change(t, l, outputRoot, "blog/a/index.html", watch.Write)}
			},
			processed: 1, wrote: []string{"blog/a/index.html"},
			check: func(t *testing.T) {
				if !holds(t, public("blog/a/index.html"), "<!-- robotsmith -->") || !holds(t, public("blog/a/index.html"), "A2") {
					t.Error("blog/a/index.html: not processed")
				}
			},
		},
		{
			name: "front matter edit",
			edit: func() []watch.Change {
				write("content/blog/a.md", "---\ntitle: A\nrobots: noindex\n---\nalpha\n")
				return []watch.Change{change(t, l, contentRoot, "blog/a.md", watch.Write)}
			},
			processed: 1, wrote: []string{"blog/a/index.html"}, flips: []string{"/blog/a/ public → noindex"},
			check: func(t *testing.T) {
				if !holds(t, public("blog/a/index.html"), noindexPrefix) {
					t.Error("blog/a/index.html: not noindex")
				}
			},
		},
		{
			name: "front matter edit that changes no decision",
			edit: func() []watch.Change {
				write("content/blog/b.md", "---\ntitle: B, renamed\n---\nbeta\n")
				return []watch.Change{change(t, l, contentRoot, "blog/b.md", watch.Write)}
			},
		},
		{
			name: "cascade reaches every page under the section",
			edit: func() []watch.Change {
				write("content/blog/_index.md", "---\ntitle: Blog\ncascade:\n  robots: nofollow\n---\n")
				return []watch.Change{change(t, l, contentRoot, "blog/_index.md", watch.Write)}
			},
			// blog/a's own `robots: noindex` replaces the cascade's robots (SPEC §3.3): its page
			// is processed and stays as it was.
			processed: 3, wrote: []string{"blog/b/index.html", "blog/index.html"},
			check: func(t *testing.T) {
				if !holds(t, public("blog/b/index.html"), "nofollow") || holds(t, public("index.html"), "nofollow") {
					t.Error("the cascade did not reach blog/b, or reached the home page")
				}
				if holds(t, public("blog/a/index.html"), "nofollow") {
					t.Error("blog/a: the cascade's robots, which its own replaces")
				}
			},
		},
		{
			name: "broken front matter: an error with file and line, nothing written",
			edit: func() []watch.Change {
				write("content/blog/b.md", "---\ntitle: [unclosed\n---\nbeta\n")
				write("public/blog/b/index.html", themePage("B3"))
				return []watch.Change{
					change(t, l, contentRoot, "blog/b.md", watch.Write),
					change(t, l, outputRoot, "blog/b/index.html", watch.Write),
				}
			},
			// The page the generator wrote is still processed with the last good reading.
			processed: 1, wrote: []string{"blog/b/index.html"}, errs: []string{"content/blog/b.md:2"},
		},
		{
			name: "the fix recovers",
			edit: func() []watch.Change {
				write("content/blog/b.md", "---\ntitle: B\nrobots: noindex\n---\nbeta\n")
				return []watch.Change{change(t, l, contentRoot, "blog/b.md", watch.Write)}
			},
			processed: 1, wrote: []string{"blog/b/index.html"}, flips: []string{"/blog/b/ public → noindex"},
		},
		{
			name: "misspelt value: the page is left as the generator wrote it",
			edit: func() []watch.Change {
				write("content/blog/b.md", "---\ntitle: B\nrobots: noindx\n---\nbeta\n")
				write("public/blog/b/index.html", themePage("B4"))
				return []watch.Change{
					change(t, l, contentRoot, "blog/b.md", watch.Write),
					change(t, l, outputRoot, "blog/b/index.html", watch.Write),
				}
			},
			processed: 1, errs: []string{"content/blog/b.md:3"},
			check: func(t *testing.T) {
				if holds(t, public("blog/b/index.html"), "<!-- robotsmith -->") {
					t.Error("blog/b/index.html was written despite its misspelt value")
				}
			},
		},
		{
			name: "its fix recovers",
			edit: func() []watch.Change {
				write("content/blog/b.md", "---\ntitle: B\nrobots: noindex\n---\nbeta\n")
				return []watch.Change{change(t, l, contentRoot, "blog/b.md", watch.Write)}
			},
			processed: 1, wrote: []string{"blog/b/index.html"},
			check: func(t *testing.T) {
				if !holds(t, public("blog/b/index.html"), noindexPrefix) {
					t.Error("blog/b/index.html: not noindex")
				}
			},
		},
		{
			name: "a rule: every file decided again, only the changed written",
			edit: func() []watch.Change {
				write("robotsmith.yaml", "rules:\n  - path: /files/**\n    robots: noindex\n  - path: /\n    robots: noindex\n")
				return []watch.Change{change(t, l, configRoot, "robotsmith.yaml", watch.Write)}
			},
			processed: 5, wrote: []string{"index.html"}, flips: []string{"/ public → noindex"},
		},
		{
			name: "a broken rule: an error with file and line, the last rules stay",
			edit: func() []watch.Change {
				write("robotsmith.yaml", "rules:\n  - path: /files/**\n    robots: noindx\n")
				return []watch.Change{change(t, l, configRoot, "robotsmith.yaml", watch.Write)}
			},
			errs: []string{"robotsmith.yaml:3"},
		},
		{
			name: "its fix",
			edit: func() []watch.Change {
				write("robotsmith.yaml", "rules:\n  - path: /files/**\n    robots: noindex\n")
				return []watch.Change{change(t, l, configRoot, "robotsmith.yaml", watch.Write)}
			},
			processed: 5, wrote: []string{"index.html"}, flips: []string{"/ noindex → public"},
		},
		{
			name: "_headers removed (Jekyll's cleaner): written again",
			edit: func() []watch.Change {
				os.Remove(public("_headers"))
				return []watch.Change{change(t, l, outputRoot, "_headers", watch.Remove)}
			},
			wrote: []string{"_headers"},
		},
		{
			name: "a new file",
			edit: func() []watch.Change {
				write("public/files/y.pdf", "%PDF-1.4\n")
				return []watch.Change{change(t, l, outputRoot, "files/y.pdf", watch.Create|watch.Write)}
			},
			processed: 1, wrote: []string{"_headers"},
			check: func(t *testing.T) {
				if !holds(t, public("_headers"), "/files/y.pdf\n") {
					t.Error("_headers has no rule for the new PDF")
				}
			},
		},
		{
			name: "a page removed",
			edit: func() []watch.Change {
				os.Remove(public("files/y.pdf"))
				os.RemoveAll(public("blog/a"))
				return []watch.Change{
					change(t, l, outputRoot, "blog/a", watch.Remove),
					change(t, l, outputRoot, "files/y.pdf", watch.Remove),
				}
			},
			wrote: []string{"_headers"}, flips: []string{"/blog/a/ gone (was noindex)"},
			check: func(t *testing.T) {
				if holds(t, public("_headers"), "/files/y.pdf") {
					t.Error("_headers still names the removed PDF")
				}
			},
		},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			changes := s.edit()
			before := readTree(t, filepath.Join(dir, "public"))
			u := l.Apply(ctx, watch.Batch{Changes: changes})
			t.Log(u.Line())
			if u.Processed != s.processed {
				t.Errorf("processed: got %d, want %d", u.Processed, s.processed)
			}
			if !slices.Equal(u.Wrote, s.wrote) {
				t.Errorf("wrote: got %q, want %q", u.Wrote, s.wrote)
			}
			var flips []string
			for _, f := range u.Flips {
				flips = append(flips, f.String())
			}
			if !slices.Equal(flips, s.flips) {
				t.Errorf("flips: got %q, want %q", flips, s.flips)
			}
			if len(u.Errs) != len(s.errs) {
				t.Errorf("errors: got %v, want %d", u.Errs, len(s.errs))
			}
			for i, e := range u.Errs {
				if i < len(s.errs) && !strings.Contains(e.Error(), s.errs[i]) {
					t.Errorf("error %d: got %q, want it to name %s", i, e, s.errs[i])
				}
				if problem.CodeOf(e) == 0 {
					t.Errorf("error %d, %q, has no code", i, e)
				}
			}
			// Every file written is recorded; every other file is as it was.
			after := readTree(t, filepath.Join(dir, "public"))
			for name, body := range after {
				written := slices.Contains(u.Wrote, name)
				if written && !own.Same(public(name)) {
					t.Errorf("%s: written but not recorded in Own", name)
				}
				if old, ok := before[name]; ok && old != body && !written {
					t.Errorf("%s: changed, but not among the files written", name)
				}
			}
			if u.Retry || u.Busy > 0 {
				t.Errorf("retry %v, busy %d; want nothing left", u.Retry, u.Busy)
			}
			if s.check != nil {
				s.check(t)
			}
		})
	}
}

// TestLiveRewrittenWhileRead: a page the generator writes again between robotsmith's read and
// its write is not written (it would put the old content back); it is done with the next batch.
func TestLiveRewrittenWhileRead(t *testing.T) {
	dir := liveSite(t)
	l, _ := startLive(t, dir)
	page := filepath.Join(dir, "public/blog/a/index.html")
	os.WriteFile(page, []byte(themePage("A2")), 0o644)
	l.afterStep = func() { os.WriteFile(page, []byte(themePage("A3, longer")), 0o644) }
	u := l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "blog/a/index.html", watch.Write)}})
	t.Log(u.Line())
	if u.Busy != 1 || !u.Retry || len(u.Wrote) != 0 {
		t.Errorf("busy %d, retry %v, wrote %q; want 1, true, nothing", u.Busy, u.Retry, u.Wrote)
	}
	if !holds(t, page, "A3, longer") || holds(t, page, "<!-- robotsmith -->") {
		t.Errorf("the generator's write was overwritten")
	}
	l.afterStep = nil
	u = l.Apply(context.Background(), watch.Batch{})
	t.Log(u.Line())
	if !slices.Equal(u.Wrote, []string{"blog/a/index.html"}) || u.Retry {
		t.Errorf("the retry: wrote %q, retry %v", u.Wrote, u.Retry)
	}
	if !holds(t, page, "A3, longer") || !holds(t, page, "<!-- robotsmith -->") {
		t.Errorf("the retry did not process the generator's last write")
	}
}

// TestLiveEmptyPage: a page read between the generator's truncation of it and its write (Hugo
// writes in place) is read again once quiet, so that its decision is not taken from an empty file
// and the change of its indexability is reported when it is written; a page still empty then is
// taken as it is.
func TestLiveEmptyPage(t *testing.T) {
	dir := liveSite(t)
	l, _ := startLive(t, dir)
	src := filepath.Join(dir, "content/blog/a.md")
	page := filepath.Join(dir, "public/blog/a/index.html")
	os.WriteFile(src, []byte("---\ntitle: A\nrobots: noindex\n---\nalpha\n"), 0o644)
	os.WriteFile(page, nil, 0o644)
	u := l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{
		change(t, l, contentRoot, "blog/a.md", watch.Write), change(t, l, outputRoot, "blog/a/index.html", watch.Write)}})
	t.Log(u.Line())
	if u.Busy != 1 || !u.Retry || len(u.Flips) != 0 {
		t.Errorf("busy %d, retry %v, flips %v; want 1, true, none", u.Busy, u.Retry, u.Flips)
	}
	os.WriteFile(page, []byte(themePage("A")), 0o644)
	u = l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "blog/a/index.html", watch.Write)}})
	t.Log(u.Line())
	if want := []Flip{{"/blog/a/", "public", "noindex"}}; !slices.Equal(u.Flips, want) || u.Busy != 0 {
		t.Errorf("flips %v, busy %d; want %v, 0", u.Flips, u.Busy, want)
	}
	if !holds(t, page, noindexPrefix) {
		t.Errorf("the page written does not carry the noindex")
	}

	// A page that stays empty is taken as it is on the second reading.
	os.WriteFile(page, nil, 0o644)
	u = l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "blog/a/index.html", watch.Write)}})
	if u.Busy != 1 {
		t.Errorf("busy %d, want 1", u.Busy)
	}
	u = l.Apply(context.Background(), watch.Batch{})
	t.Log(u.Line())
	if u.Busy != 0 || u.Retry || u.Processed != 1 {
		t.Errorf("the empty page again: busy %d, retry %v, processed %d; want 0, false, 1", u.Busy, u.Retry, u.Processed)
	}
}

// TestLiveWaitsForOutput: before the generator has written the output, the first pass fails and
// is tried again with every batch.
func TestLiveWaitsForOutput(t *testing.T) {
	dir := liveSite(t)
	os.RemoveAll(filepath.Join(dir, "public"))
	l, err := NewLive(context.Background(), Options{Root: dir}, watch.NewOwn())
	if err != nil {
		t.Fatal(err)
	}
	if u := l.Build(context.Background()); len(u.Errs) != 1 || !strings.Contains(u.Errs[0].Error(), "output folder not found") || problem.CodeOf(u.Errs[0]) != problem.OutputNotFound {
		t.Fatalf("first pass without output: %v", u.Errs)
	}
	writeTree(t, dir, map[string]string{"public/index.html": themePage("Home")})
	u := l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "index.html", watch.Create)}})
	if len(u.Errs) > 0 || !u.Full || !slices.Equal(u.Wrote, []string{"index.html"}) {
		t.Errorf("first pass once the output is there: %s (%v)", u.Line(), u.Errs)
	}
}

func TestUpdateLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		u    Update
		want string
	}{
		{"page", Update{Changes: []string{"public/a/index.html"}, Processed: 1, Wrote: []string{"a/index.html"}, Took: 12345678},
			"public/a/index.html: 1 file processed, 1 written in 12ms"},
		{"nothing", Update{Changes: []string{"content/a.md"}, Took: 700e6}, "content/a.md: no decision changed in 700ms"},
		{"flips", Update{Changes: []string{"content/a.md", "content/b.md", "content/c.md", "content/d.md"}, Processed: 2, Wrote: []string{"a/index.html"},
			Flips: []Flip{{"/a/", "public", "noindex"}, {"/n/", "", "public"}, {"/b.html", "noindex", ""}}, Took: 3e6},
			"content/a.md, content/b.md, content/c.md and 1 more: 2 files processed, 1 written in 3ms; /a/ public → noindex, /n/ new, public, /b.html gone (was noindex)"},
		{"full", Update{Changes: []string{"robotsmith.yaml"}, Full: true, Why: "configuration changed", Processed: 14435, Took: 2345678901},
			"robotsmith.yaml (configuration changed): 14435 files processed, 0 written in 2.35s"},
		{"errors and busy", Update{Changes: []string{"public/"}, Processed: 3, Removed: 2, Errs: []error{os.ErrClosed}, Busy: 1, Took: 1e6},
			"public/: 3 files processed, 0 written, 2 removed, 1 error in 1ms; 1 file changed while robotsmith read them, again shortly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.u.Line(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
