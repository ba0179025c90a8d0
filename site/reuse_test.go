package site

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// remapEdit is one edit of a site's files, as an author or a generator makes it: do edits the
// copy of the site in dir and returns the paths a watcher reports (named changed); reads is how
// many files Remap opens to read (front matter, and Jekyll's check of a file's first line).
type remapEdit struct {
	desc  string
	do    func(t *testing.T, dir string) []string
	reads int
}

// TestRemap: after each edit of a sequence, Remap (told what a watcher reports) gives, in full,
// the Map that a fresh Open and Map of the same files give (every page, the pages made without a
// source, the warnings and errors, and the owner of every output file), and opens only the files
// the edit changed: a regression to reading every source fails it.
func TestRemap(t *testing.T) {
	tests := []struct {
		gen, fixture string
		edits        []remapEdit
	}{
		{gen: "hugo", fixture: "basic", edits: []remapEdit{
			{desc: "nothing changed", reads: 0, do: func(t *testing.T, dir string) []string { return nil }},
			{desc: "robots value changed", reads: 1, do: replaceIn("content/blog/first.md", "title: First Post", "title: First Post\nrobots: noindex")},
			{desc: "robots value changed again", reads: 1, do: replaceIn("content/blog/first.md", "robots: noindex", "robots: nofollow")},
			{desc: "title changed", reads: 1, do: replaceIn("content/blog/first.md", "title: First Post", "title: Renamed")},
			{desc: "slug changed", reads: 1, do: replaceIn("content/blog/slugged.md", `slug: "-Custom Slug-"`, `slug: other`)},
			{desc: "file added", reads: 1, do: write("content/blog/new.md", "---\ntitle: New\ntags: [fresh]\naliases: [/was-new/]\n---\n")},
			{desc: "file removed", reads: 0, do: remove("content/blog/new.md")},
			{desc: "file renamed", reads: 1, do: rename("content/blog/first.md", "content/blog/moved.md")},
			{desc: "cascade in _index.md changed", reads: 1, do: replaceIn("content/blog/_index.md", "robots: noimageindex", "robots: noindex")},
			{desc: "cascade target changed", reads: 1, do: replaceIn("content/blog/_index.md", "path: /blog/sub/**", "path: /blog/**")},
			{desc: "touched with identical content", reads: 0, do: touch("content/contact.md")},
			{desc: "named without a change", reads: 1, do: name("content/contact.md")},
			{desc: "same size and times, named", reads: 1, do: sameSize("content/contact.md", "outputs: [json]", "outputs: [html]", true)},
			{desc: "front matter broken", reads: 1, do: replaceIn("content/blog/slugged.md", "title: Slugged", "title: [Slugged")},
			{desc: "front matter fixed", reads: 1, do: replaceIn("content/blog/slugged.md", "title: [Slugged", "title: Slugged")},
			{desc: "new section with a page", reads: 2, do: func(t *testing.T, dir string) []string {
				write("content/news/_index.md", "---\ntitle: News\ncascade:\n  robots: noarchive\n---\n")(t, dir)
				write("content/news/item.md", "---\ntitle: Item\n---\n")(t, dir)
				return []string{filepath.Join(dir, "content/news")}
			}},
			{desc: "section removed", reads: 0, do: remove("content/news")},
			{desc: "bundle resource added", reads: 0, do: write("content/blog/bundle/extra.txt", "extra")},
			{desc: "bundle with an alias added", reads: 1, do: write("content/blog/pack/index.md", "---\ntitle: Pack\naliases: [/pack-old/]\n---\n")},
			{desc: "its first resource added", reads: 0, do: write("content/blog/pack/photo.jpg", "jpg")},
			{desc: "leaf bundle made of a folder", reads: 1, do: write("content/docs/guide/index.md", "---\ntitle: Leaf\n---\n")},
			{desc: "events lost: everything named", reads: -1, do: func(t *testing.T, dir string) []string { return []string{dir} }},
		}},
		{gen: "jekyll", fixture: "pretty", edits: []remapEdit{
			{desc: "nothing changed", reads: 0, do: func(t *testing.T, dir string) []string { return nil }},
			{desc: "robots value changed", reads: 1, do: replaceIn("_posts/2019-05-05-first.md", "---\n---", "---\nrobots: nofollow\n---")},
			{desc: "permalink changed", reads: 2, do: replaceIn("about.md", "layout: default", "layout: default\npermalink: /who/")},
			{desc: "a page a default reaches edited: the default still applies", reads: 2, do: replaceIn("docs/setup.md", "Setup", "Setup, longer")},
			{desc: "a page the default of a glob reaches added", reads: 2, do: write("legal/cookies.md", "---\n---\nCookies")},
			{desc: "categories changed", reads: 1, do: replaceIn("_posts/2019-05-06-second.md", "---\n", "---\ncategories: [news, tech]\n")},
			{desc: "file renamed", reads: 1, do: rename("_posts/2019-05-06-second.md", "_posts/2019-05-07-second.md")},
			{desc: "file removed", reads: 0, do: remove("legal/cookies.md")},
			{desc: "draft added", reads: 1, do: write("_drafts/idea.md", "---\ntitle: Idea\n---\n")},
			{desc: "draft rewritten: its date is its file's", reads: 1, do: rewrite("_drafts/idea.md", -72*time.Hour)},
			{desc: "page touched with identical content", reads: 0, do: touch("about.md")},
			{desc: "collection document added", reads: 2, do: write("_recipes/soup.md", "---\nrobots: noindex\n---\n")},
			{desc: "front matter broken", reads: 2, do: replaceIn("about.md", "layout: default", "layout: [default")},
			{desc: "front matter fixed", reads: 2, do: replaceIn("about.md", "layout: [default", "layout: default")},
			{desc: "same size and times, named", reads: 2, do: sameSize("about.md", "permalink: /who/", "permalink: /how/", true)},
			{desc: "file no longer has front matter", reads: 1, do: write("legal/terms.md", "Terms")},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.gen+"/"+tc.fixture, func(t *testing.T) {
			dir := t.TempDir()
			testtool.CopyTree(t, filepath.Join("testdata", tc.gen, tc.fixture), dir)
			s := openAt(t, dir)
			prev, err := s.Remap(nil)
			checkRemap(t, "first mapping", dir, prev, err)
			prevWant, _ := openAt(t, dir).Map()
			for _, e := range tc.edits {
				named := e.do(t, dir)
				got, gotErr := s.Remap(named)
				checkRemap(t, e.desc, dir, got, gotErr)
				if n := int(s.kept.opened.Load()); e.reads >= 0 && n != e.reads {
					t.Errorf("%s: Remap opened %d files, want %d", e.desc, n, e.reads)
				}
				// Watch mode holds the last Map while it maps again: it must stay as it was.
				for _, d := range pagesDiff("the Map before", prev.Pages, prevWant.Pages) {
					t.Errorf("%s: Remap changed %s", e.desc, d)
				}
				prev, prevWant = got, nil
				prevWant, _ = openAt(t, dir).Map()
			}
		})
	}
}

// TestRemapNames: Remap sees what the watcher names, and only that (it does not stat every file
// and folder): an edit of a file's content, or a file that comes or goes, is seen when named.
// Without the name Remap keeps the old reading or listing, which shows that the check of TestRemap
// can fail.
func TestRemapNames(t *testing.T) {
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "hugo", "basic"), dir)
	s := openAt(t, dir)
	if _, err := s.Remap(nil); err != nil {
		t.Fatal(err)
	}
	src := "content/blog/slugged.md"
	sameSize(src, "-Custom Slug-", "-Custom Plug-", false)(t, dir)
	fresh, _ := openAt(t, dir).Map()
	if got, want := fresh.PageOf(src).URL, "/blog/custom-plug/"; got != want {
		t.Fatalf("fresh Map: URL %q, want %q", got, want)
	}
	stale, err := s.Remap(nil)
	if got, want := stale.PageOf(src).URL, "/blog/custom-slug/"; got != want || len(remapDiff(t, dir, stale, err)) == 0 {
		t.Errorf("unnamed: URL %q, want %q, the reading kept", got, want)
	}
	got, err := s.Remap([]string{filepath.Join(dir, src)})
	checkRemap(t, "named", dir, got, err)

	late := "content/blog/late.md"
	for _, edit := range []func(*testing.T, string) []string{write(late, "---\ntitle: Late\n---\n"), remove(late)} {
		named := edit(t, dir)
		if stale, err := s.Remap(nil); len(remapDiff(t, dir, stale, err)) == 0 {
			t.Errorf("unnamed %s: Remap saw it, want the listing kept", named[0])
		}
		got, err := s.Remap(named)
		checkRemap(t, "named "+named[0], dir, got, err)
	}
}

// openAt opens the site in dir at a fixed clock, as a fresh Open of the same files would be.
func openAt(t *testing.T, dir string) *Site {
	t.Helper()
	s, err := Open(dir, Options{Now: hugoNow})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkRemap compares a Map (and the error) that Remap made with the one a fresh Open and Map of
// dir make.
func checkRemap(t *testing.T, desc, dir string, got *Map, gotErr error) {
	t.Helper()
	for _, d := range remapDiff(t, dir, got, gotErr) {
		t.Errorf("%s: %s", desc, d)
	}
}

// remapDiff lists how a Map (and the error) differ from what a fresh Open and Map of dir make.
func remapDiff(t *testing.T, dir string, got *Map, gotErr error) []string {
	t.Helper()
	want, wantErr := openAt(t, dir).Map()
	var diffs []string
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		diffs = append(diffs, fmt.Sprintf("error:\ngot  %v\nwant %v", gotErr, wantErr))
	}
	if got == nil || want == nil {
		return append(diffs, fmt.Sprintf("got map %v, want %v", got, want))
	}
	diffs = append(diffs, pagesDiff("Pages", got.Pages, want.Pages)...)
	diffs = append(diffs, pagesDiff("Sourceless", got.Sourceless, want.Sourceless)...)
	if g, w := errStrings(got.Warnings), errStrings(want.Warnings); !reflect.DeepEqual(g, w) {
		diffs = append(diffs, fmt.Sprintf("Warnings:\ngot  %q\nwant %q", g, w))
	}
	files := map[string]bool{}
	for _, m := range []*Map{got, want} {
		for _, o := range m.own.owners {
			files[o.file] = true
		}
	}
	for f := range files {
		if g, w := got.Owner(f), want.Owner(f); !reflect.DeepEqual(g, w) {
			diffs = append(diffs, fmt.Sprintf("owner of %s: got %s of %+v, want %s of %+v", f, g.Role, g.Page, w.Role, w.Page))
		}
	}
	if !reflect.DeepEqual(got.own.pagers, want.own.pagers) {
		diffs = append(diffs, fmt.Sprintf("pagers:\ngot  %v\nwant %v", got.own.pagers, want.own.pagers))
	}
	return diffs
}

// pagesDiff names the first page that differs.
func pagesDiff(desc string, got, want []Page) []string {
	if reflect.DeepEqual(got, want) {
		return nil
	}
	for i := range max(len(got), len(want)) {
		var g, w any = "none", "none"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if !reflect.DeepEqual(g, w) {
			return []string{fmt.Sprintf("%s[%d]:\ngot  %+v\nwant %+v", desc, i, g, w)}
		}
	}
	return nil
}

func errStrings(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// The edits, each returning what a watcher reports.

// write writes the file, and the folders it goes in; a watcher reports the file and the first
// folder it made.
func write(rel, content string) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		p := filepath.Join(dir, rel)
		named := []string{p}
		for d := filepath.Dir(p); d != dir; d = filepath.Dir(d) {
			if _, err := os.Stat(d); err == nil {
				break
			}
			named = append(named[:1], d)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return named
	}
}

func replaceIn(rel, old, new string) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		p := filepath.Join(dir, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s does not hold %q", rel, old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{p}
	}
}

func remove(rel string) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		p := filepath.Join(dir, rel)
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		return []string{p}
	}
}

func rename(from, to string) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		a, b := filepath.Join(dir, from), filepath.Join(dir, to)
		if err := os.Rename(a, b); err != nil {
			t.Fatal(err)
		}
		return []string{a, b}
	}
}

// touch moves the file's modification time and reports nothing, as a watcher does (a change of
// attributes changes no content).
func touch(rel string) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		when := time.Now().Add(-72 * time.Hour).Truncate(time.Second)
		if err := os.Chtimes(filepath.Join(dir, rel), when, when); err != nil {
			t.Fatal(err)
		}
		return nil
	}
}

// rewrite writes the file again as it is, with a modification time of now+by.
func rewrite(rel string, by time.Duration) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		p := filepath.Join(dir, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(by).Truncate(time.Second)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
		return []string{p}
	}
}

func name(rel string) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string { return []string{filepath.Join(dir, rel)} }
}

// sameSize replaces old by new (as long) in the file and sets its modification time back: only
// its change time and the watcher's report say it changed.
func sameSize(rel, old, new string, named bool) func(*testing.T, string) []string {
	return func(t *testing.T, dir string) []string {
		if len(old) != len(new) {
			t.Fatalf("%q and %q differ in length", old, new)
		}
		p := filepath.Join(dir, rel)
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		replaceIn(rel, old, new)(t, dir)
		if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if !named {
			return nil
		}
		return []string{p}
	}
}
