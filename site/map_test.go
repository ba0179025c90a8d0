package site

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestOwner: every kind of file a Hugo site's pages own, in the formats fixture, which
// TestHugoIntegration checks file by file against what Hugo v0.165 wrote.
func TestOwner(t *testing.T) {
	m, err := openFixture(t, "formats", nil).Map()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file                     string
		role                     Role
		source, kind, lang, desc string
	}{
		{file: "index.html", role: RolePage, source: "content/_index.md", kind: "home", lang: "en"},
		{file: "page/3/index.html", role: RolePager, source: "content/_index.md", kind: "home", lang: "en"},
		{file: "everything.feed", role: RoleFormat, source: "content/_index.md", kind: "home", lang: "en", desc: "a theme's output format"},
		{file: "llms.llms.txt", role: RoleFormat, source: "content/_index.md", kind: "home", lang: "en", desc: "a media type whose first suffix has two parts"},
		{file: "_redirects", role: RoleFormat, source: "content/_index.md", kind: "home", lang: "en", desc: "a media type with no suffix"},
		{file: "de/index.html", role: RolePage, kind: "home", lang: "de", desc: "a home with no content file"},
		{file: "de/llms.llms.txt", role: RoleFormat, kind: "home", lang: "de"},
		{file: "de/404.html", role: RolePage, kind: "404", lang: "de"},
		{file: "blog/first/index.html", role: RolePage, source: "content/blog/first.md", kind: "page", lang: "en"},
		{file: "amp/blog/first/index.html", role: RoleFormat, source: "content/blog/first.md", kind: "page", lang: "en", desc: "AMP"},
		{file: "blog/first.md", role: RoleFormat, source: "content/blog/first.md", kind: "page", lang: "en", desc: "markdown made ugly by the site"},
		{file: "blog/page/2/index.json", role: RolePager, source: "content/blog/_index.md", kind: "section", lang: "en", desc: "a paginated JSON list"},
		{file: "blog/page/1/index.html", role: RolePager, source: "content/blog/_index.md", kind: "section", lang: "en", desc: "page 1, a redirect stub"},
		{file: "de/blog/index.xml", role: RoleFormat, kind: "section", lang: "de", desc: "a section with no content file in that language"},
		{file: "docs/guide/start/index.json", role: RoleFormat, source: "content/docs/guide/start.md", kind: "page", lang: "en", desc: "outputs from a cascade"},
		{file: "api/data/index.json", role: RoleFormat, source: "content/api/data.md", kind: "page", lang: "en", desc: "a page with no HTML"},
		{file: "tags/c#/index.html", role: RolePage, kind: "term", lang: "en", desc: "a term with no content file"},
		{file: "api/tags/c#/data.json", role: RoleFormat, kind: "term", lang: "en", desc: "a format with its own path and base name"},
		{file: "api/tags/go/data.json", role: RoleFormat, source: "content/tags/go/_index.md", kind: "term", lang: "en"},
		{file: "de/api/tags/go/data.json", role: RoleFormat, kind: "term", lang: "de"},
		{file: "tags/page/3/index.html", role: RolePager, kind: "taxonomy", lang: "en", desc: "a taxonomy list's pager"},
		{file: "de/series/index.html", role: RolePage, kind: "taxonomy", lang: "de", desc: "a taxonomy no page of the language uses"},
		{file: "en/index.html", role: RoleNone, desc: "Hugo's redirect to the default language"},
		{file: "sitemap.xml", role: RoleNone},
		{file: "blog/first/index.json", role: RoleNone, desc: "a format the page does not have"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			o := m.Owner(tc.file)
			got := fmt.Sprint(o.Role)
			if o.Page != nil {
				got = fmt.Sprintf("%s of %q (%s, %s)", o.Role, o.Page.Source, o.Page.Kind(), o.Page.Lang())
			}
			want := fmt.Sprint(tc.role)
			if tc.role != RoleNone {
				want = fmt.Sprintf("%s of %q (%s, %s)", tc.role, tc.source, tc.kind, tc.lang)
			}
			if got != want {
				t.Errorf("Owner(%q) (%s) = %s, want %s", tc.file, tc.desc, got, want)
			}
		})
	}
}

// TestMarkdownTwins: the Markdown a plugin publishes beside a Jekyll page is the page's, whichever
// convention names it; a .md file twins no page but those.
func TestMarkdownTwins(t *testing.T) {
	tests := []struct {
		page  string
		twins []string // the names the conventions give its Markdown
	}{
		{"blog/a/index.html", []string{"blog/a/index.md", "blog/a/index.html.md", "blog/a.md"}},
		{"about.html", []string{"about.md", "about.html.md"}},
		{"index.html", []string{"index.md", "index.html.md"}},
		{"old/page.htm", []string{"old/page.md", "old/page.htm.md"}},
	}
	for _, tc := range tests {
		t.Run(tc.page, func(t *testing.T) {
			for _, twin := range tc.twins {
				if got := twinOf(twin); !slices.Contains(got, tc.page) {
					t.Errorf("twinOf(%q) = %q, want it to name %s", twin, got, tc.page)
				}
			}
		})
	}
	for _, rel := range []string{"feed.xml", "blog/a/index.html", ".md", "", "readme.markdown"} {
		if got := twinOf(rel); got != nil {
			t.Errorf("twinOf(%q) = %q, want none", rel, got)
		}
	}
}

// ExampleMap_Owner: which page an output file of a multilingual Hugo site belongs to, for a
// page with a content file and for the German home Hugo made without one.
func ExampleMap_Owner() {
	s, _ := Open("testdata/hugo/formats", Options{})
	m, _ := s.Map()
	for _, f := range []string{"amp/blog/first/index.html", "blog/page/2/index.json", "de/llms.llms.txt"} {
		o := m.Owner(f)
		fmt.Printf("%s: %s of %q, kind %s, language %s\n", f, o.Role, o.Page.Source, o.Page.Kind(), o.Page.Lang())
	}
	// Output:
	// amp/blog/first/index.html: output format of "content/blog/first.md", kind page, language en
	// blog/page/2/index.json: pager of "content/blog/_index.md", kind section, language en
	// de/llms.llms.txt: output format of "", kind home, language de
}

// TestOwnersKeepNoPage: the owner index outlives its map without keeping it. A run lets the map
// go, the largest thing it holds, and keeps only the index while it lists the output folder; an
// index that held a pointer into the map would keep every page for the whole run.
func TestOwnersKeepNoPage(t *testing.T) {
	m, err := openFixture(t, "formats", nil).Map()
	if err != nil {
		t.Fatal(err)
	}
	collected := make(chan struct{})
	runtime.AddCleanup(&m.Pages[0], func(ch chan struct{}) { close(ch) }, collected)
	own := m.Owners()
	m = nil
	deadline := time.Now().Add(2 * time.Second)
	for done := false; !done; {
		runtime.GC()
		select {
		case <-collected:
			done = true
		case <-time.After(10 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("the map's pages are still reachable while its owner index is held")
			}
		}
	}
	if _, r, ok := own.Index("blog/first/index.html"); !ok || r != RolePage {
		t.Errorf("Index(blog/first/index.html) = %v, %v once the map is gone; want %v", r, ok, RolePage)
	}
}
