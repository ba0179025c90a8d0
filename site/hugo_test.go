package site

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/rules"
)

var hugoNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func openFixture(t *testing.T, name string, env map[string]string) *Site {
	t.Helper()
	s, err := Open(filepath.Join("testdata", "hugo", name), Options{Now: hugoNow, Env: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if s.Generator != Hugo {
		t.Fatalf("Generator: got %q, want %q", s.Generator, Hugo)
	}
	return s
}

func pagesBySource(t *testing.T, s *Site) map[string]Page {
	t.Helper()
	pages, err := s.Pages()
	if err != nil {
		t.Fatalf("Pages: %v", err)
	}
	m := map[string]Page{}
	for _, p := range pages {
		m[p.Source] = p
	}
	return m
}

// TestHugoPages checks the mapping of the fixtures without running Hugo; the integration test
// holds the same answers against what Hugo v0.165 wrote.
func TestHugoPages(t *testing.T) {
	tests := []struct {
		site, source           string
		env                    map[string]string
		kind, url, output, why string
		aliases, resources     string // comma-joined
		formats                string // comma-joined name:file
	}{
		{site: "basic", source: "content/_index.md", kind: "home", url: "/", output: "index.html", formats: "rss:index.xml"},
		{site: "basic", source: "content/blog/_index.md", kind: "section", url: "/blog/", output: "blog/index.html", formats: "rss:blog/index.xml"},
		{site: "basic", source: "content/blog/first.md", kind: "page", url: "/blog/first/", output: "blog/first/index.html", aliases: "old-first/index.html,blog/other-name/index.html"},
		{site: "basic", source: "content/blog/My Second Post.md", kind: "page", url: "/blog/my-second-post/", output: "blog/my-second-post/index.html"},
		{site: "basic", source: "content/blog/slugged.md", kind: "page", url: "/blog/custom-slug/", output: "blog/custom-slug/index.html"},
		{site: "basic", source: "content/blog/urled.md", kind: "page", url: "/Elsewhere/Page/", output: "Elsewhere/Page/index.html"},
		{site: "basic", source: "content/blog/file-url.md", kind: "page", url: "/custom/file.html", output: "custom/file.html"},
		{site: "basic", source: "content/blog/bundle/index.md", kind: "page", url: "/blog/bundle/", output: "blog/bundle/index.html", resources: "blog/bundle/Report.pdf"},
		{site: "basic", source: "content/docs/guide/_index.md", kind: "section", url: "/docs/guide/", output: "docs/guide/index.html", resources: "docs/guide/diagram.png", formats: "rss:docs/guide/index.xml"},
		{site: "basic", source: "content/tags/_index.md", kind: "taxonomy", url: "/tags/", output: "tags/index.html", formats: "rss:tags/index.xml"},
		{site: "basic", source: "content/tags/go/_index.md", kind: "term", url: "/tags/go/", output: "tags/go/index.html", formats: "rss:tags/go/index.xml"},
		{site: "basic", source: "content/about/index.html", kind: "page", url: "/about/", output: "about/index.html"},
		{site: "basic", source: "content/blog/draft.md", kind: "page", url: "/blog/draft/", output: "blog/draft/index.html", why: "draft"},
		{site: "basic", source: "content/blog/future.md", kind: "page", url: "/blog/future/", output: "blog/future/index.html", why: "future"},
		{site: "basic", source: "content/blog/expired.md", kind: "page", url: "/blog/expired/", output: "blog/expired/index.html", why: "expired"},
		{site: "basic", source: "content/hidden/index.md", kind: "page", why: "headless"},
		{site: "basic", source: "content/never/index.md", kind: "page", why: "build.render: never"},
		{site: "basic", source: "content/contact.md", kind: "page", why: "outputs without html", formats: "json:contact/index.json"},
		{site: "ugly", source: "content/blog/first.md", kind: "page", url: "/blog/first.html", output: "blog/first.html", aliases: "old-first.html,blog/other-name.html"},
		{site: "ugly", source: "content/blog/_index.md", kind: "section", url: "/blog/index.html", output: "blog/index.html", formats: "rss:blog/index.xml"},
		{site: "ugly", source: "content/tags/go/_index.md", kind: "term", url: "/tags/go.html", output: "tags/go.html", formats: "rss:tags/go/index.xml"},
		{site: "ugly", source: "content/blog/bundle/index.md", kind: "page", url: "/blog/bundle.html", output: "blog/bundle.html", resources: "blog/bundle/Report.pdf"},
		{site: "permalinks", source: "content/posts/some-post.md", kind: "page", url: "/2014/11/18/some-title.html", output: "2014/11/18/some-title.html", aliases: "old/post.html"},
		{site: "permalinks", source: "content/articles/art.md", kind: "page", url: "/a/march/5/friday/64/an-article-title/", output: "a/march/5/friday/64/an-article-title/index.html"},
		{site: "permalinks", source: "content/docs/guide/slugdoc.md", kind: "page", url: "/d/guide/documentation/documentation/user-guide/custom/", output: "d/guide/documentation/documentation/user-guide/custom/index.html"},
		{site: "permalinks", source: "content/docs/_index.md", kind: "section", url: "/doc-sections/documentation/", output: "doc-sections/documentation/index.html", formats: "rss:doc-sections/documentation/index.xml"},
		{site: "permalinks", source: "content/misc/thing/index.md", kind: "page", url: "/m/thing/thing/2018-01/misc/misc/miscs/", output: "m/thing/thing/2018-01/misc/misc/miscs/index.html"},
		{site: "permalinks", source: "content/notes/deep/n1.md", kind: "page", url: "/n/notes/deep/n1/", output: "n/notes/deep/n1/index.html"},
		{site: "permalinks", source: "content/notes/top.md", kind: "page", url: "/notes-by-year/2019/top-note/", output: "notes-by-year/2019/top-note/index.html"},
		{site: "permalinks", source: "content/tags/go/_index.md", kind: "term", url: "/topic/golang/", output: "topic/golang/index.html", formats: "rss:topic/golang/index.xml"},
		{site: "nokinds", source: "content/tags/_index.md", kind: "taxonomy", why: "disableKinds: taxonomy"},
		{site: "nokinds", source: "content/tags/go/_index.md", kind: "term", url: "/tags/go.html", output: "tags/go.html"},
		{site: "nokinds", source: "content/tags/rust/_index.md", kind: "term", url: "/rust-lang/", output: "rust-lang/index.html"},
		{site: "nokinds", source: "content/categories/news/_index.md", kind: "term", url: "/categories/news.html", output: "categories/news.html"},
		{site: "nokinds", source: "content/posts/b.md", kind: "page", url: "/posts/b.html", output: "posts/b.html", aliases: "posts/b-old.html,b-abs.html"},
		{site: "edge", source: "content/docs/_index.md", kind: "section", url: "/documentation/", output: "documentation/index.html", formats: "rss:documentation/index.xml"},
		{site: "edge", source: "content/blog/slugbundle/index.md", kind: "page", url: "/blog/custom-slug/", output: "blog/custom-slug/index.html", resources: "blog/custom-slug/pic.png"},
		{site: "edge", source: "content/a/b/c/_index.md", kind: "section", url: "/a/b/c/", output: "a/b/c/index.html", formats: "rss:a/b/c/index.xml"},
		{site: "edge", source: "content/a/b/c/deep.md", kind: "page", url: "/a/b/c/deep/", output: "a/b/c/deep/index.html", aliases: "a/b/c/old-deep/index.html,abs/old/index.html,a/b/c/Mixed/Case/index.html"},
		{site: "edge", source: "content/x/y/z/leaf.md", kind: "page", url: "/x/y/z/leaf/", output: "x/y/z/leaf/index.html"},
		{site: "edge", source: "content/list/hidden.md", kind: "page", url: "/list/hidden/", output: "list/hidden/index.html"},
		{site: "edge", source: "content/list/plain.html", kind: "page", url: "/list/plain/", output: "list/plain/index.html"},
		{site: "edge", source: "content/list/raw.html", kind: "page", url: "/list/raw/", output: "list/raw/index.html"},
		{site: "edge", source: "content/tags/go/_index.md", kind: "term", url: "/golang/", output: "golang/index.html", formats: "rss:golang/index.xml"},
		{site: "edge", source: "content/tags/rust/_index.md", kind: "term", url: "/tags/rust/", output: "tags/rust/index.html", formats: "rss:tags/rust/index.xml"},
		{site: "edge", source: "content/Team Pages/Big Folder/Hello World.md", kind: "page", url: "/team-pages/big-folder/hello-world/", output: "team-pages/big-folder/hello-world/index.html"},
		{site: "edge", source: "content/Team Pages/Big Folder/Bundle Here/index.md", kind: "page", url: "/team-pages/big-folder/bundle-here/", output: "team-pages/big-folder/bundle-here/index.html"},
		{site: "edge", source: "content/blog/My Bundle/index.md", kind: "page", url: "/blog/my-bundle/", output: "blog/my-bundle/index.html", aliases: "up-one/index.html,blog/rel/index.html"},
		{site: "edge", source: "content/blog/post.html", kind: "page", url: "/blog/post/", output: "blog/post/index.html", aliases: "Old/Post.html"},
		{site: "multilingual", source: "content/_index.md", kind: "home", url: "/en/", output: "en/index.html", formats: "rss:en/index.xml"},
		{site: "multilingual", source: "content/news/hello.fr.md", kind: "page", url: "/fr/news/salut/", output: "fr/news/salut/index.html", aliases: "fr/salut-ancien/index.html,fr/news/relatif/index.html"},
		{site: "multilingual", source: "content/news/only-fr.fr.md", kind: "page", url: "/fr/relative-url/", output: "fr/relative-url/index.html"},
		{site: "multilingual", source: "content/news/abs.fr.md", kind: "page", url: "/abs-url/", output: "abs-url/index.html"},
		{site: "multilingual", source: "content/news/trip/index.md", kind: "page", url: "/en/news/trip/", output: "en/news/trip/index.html", resources: "en/news/trip/photo.jpg"},
		{site: "multilingual", source: "content/news/trip/index.fr.md", kind: "page", url: "/fr/news/trip/", output: "fr/news/trip/index.html"},
		{site: "multilingual", source: "content_de/news/welt.md", kind: "page", url: "/de/news/welt/", output: "de/news/welt/index.html"},
		{site: "multilingual", source: "content_de/news/hallo.md", kind: "page", url: "/de/news/hallo/", output: "de/news/hallo/index.html", why: "draft"},
		{site: "configdir", source: "content/never-read.md", kind: "page", url: "/never-read/", output: "never-read/index.html"},
		{site: "configdir", env: map[string]string{"HUGO_ENVIRONMENT": "staging"}, source: "src/posts/b.md", kind: "page", url: "/p/bee.html", output: "p/bee.html"},
		{site: "mounts", source: "shared/docs/start.md", kind: "page", url: "/docs/start/", output: "docs/start/index.html"},
		{site: "mounts", source: "pages/blog/one.md", kind: "page", url: "/blog/one/", output: "blog/one/index.html"},
		{site: "langdirs", source: "content/en/_index.md", kind: "home", url: "/", output: "index.html", formats: "rss:index.xml"},
		{site: "langdirs", source: "content/de/_index.md", kind: "home", url: "/de/", output: "de/index.html", formats: "rss:de/index.xml"},
		{site: "langdirs", source: "content/en/blog/a.md", kind: "page", url: "/blog/a/", output: "blog/a/index.html", formats: "markdown:blog/a/index.md"},
		{site: "langdirs", source: "content/fr/blog/a.md", kind: "page", url: "/fr/blog/a/", output: "fr/blog/a/index.html", formats: "markdown:fr/blog/a/index.md"},
		{site: "langdirs", source: "content/en/blog/up.md", kind: "page", url: "/x/", output: "x/index.html", formats: "markdown:x/index.md"},
		{site: "langdirs", source: "content/en/blog/draft.md", kind: "page", url: "/blog/draft/", output: "blog/draft/index.html", why: "draft", formats: "markdown:blog/draft/index.md"},
		{site: "langdirs", env: map[string]string{"HUGO_BUILDDRAFTS": "true"}, source: "content/en/blog/draft.md", kind: "page", url: "/blog/draft/", output: "blog/draft/index.html", formats: "markdown:blog/draft/index.md"},
	}
	for _, tc := range tests {
		t.Run(tc.site+"/"+tc.source, func(t *testing.T) {
			p, ok := pagesBySource(t, openFixture(t, tc.site, tc.env))[tc.source]
			if !ok {
				t.Fatalf("no page for %s", tc.source)
			}
			var formats []string
			x := p.Others()
			for _, f := range x.Formats {
				formats = append(formats, f.Name+":"+f.File)
			}
			got := fmt.Sprintf("kind=%s url=%s output=%s why=%s aliases=%s resources=%s formats=%s",
				p.Kind(), p.URL, p.Output, p.NoOutput(), strings.Join(x.Aliases, ","), strings.Join(x.Resources, ","), strings.Join(formats, ","))
			want := fmt.Sprintf("kind=%s url=%s output=%s why=%s aliases=%s resources=%s formats=%s",
				tc.kind, tc.url, tc.output, tc.why, tc.aliases, tc.resources, tc.formats)
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

func TestHugoConfig(t *testing.T) {
	tests := []struct {
		site         string
		env          map[string]string
		content, out string
		files        int
	}{
		{site: "basic", content: "content", out: "public", files: 1},
		{site: "configdir", content: "content", out: "prod-out", files: 5},
		{site: "configdir", env: map[string]string{"HUGO_ENVIRONMENT": "staging"}, content: "src", out: "staging-out", files: 5},
		{site: "mounts", content: "content", out: "public", files: 1},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.site, tc.env), func(t *testing.T) {
			s := openFixture(t, tc.site, tc.env)
			root := filepath.Join("testdata", "hugo", tc.site)
			if got, want := s.Content, filepath.Join(root, tc.content); got != want {
				t.Errorf("Content: got %q, want %q", got, want)
			}
			if got, want := s.Output, filepath.Join(root, tc.out); got != want {
				t.Errorf("Output: got %q, want %q", got, want)
			}
			if len(s.ConfigFiles) != tc.files {
				t.Errorf("ConfigFiles: got %v, want %d files", s.ConfigFiles, tc.files)
			}
		})
	}
}

// TestHugoInputs checks where a page's robots values come from: cascades (the declaring
// _index file and line, the site config) first, then its own front matter.
func TestHugoInputs(t *testing.T) {
	tests := []struct {
		site, source string
		want         []string // "agent=value from kind file:line", and " replaced by kind file:line"
	}{
		{site: "basic", source: "content/blog/first.md", want: []string{"robots=noimageindex from cascade content/blog/_index.md:4"}},
		// Both entries of the blog's cascade set robots: Hugo gives the page the first one's
		// (Hugo v0.165 wrote .Params.robots "noimageindex" into blog/sub/deep/).
		{site: "basic", source: "content/blog/sub/deep.md", want: []string{
			"robots=noimageindex from cascade content/blog/_index.md:4",
			"robots=nosnippet from cascade content/blog/_index.md:8 replaced by cascade content/blog/_index.md:4",
		}},
		// The page's own robots replaces the cascade's (Hugo wrote "noindex").
		{site: "basic", source: "content/blog/My Second Post.md", want: []string{
			"robots=noimageindex from cascade content/blog/_index.md:4 replaced by front matter content/blog/My Second Post.md:4",
			"robots=noindex from front matter content/blog/My Second Post.md:4",
		}},
		{site: "basic", source: "content/docs/guide/install.md", want: []string{"robots=noarchive from cascade hugo.toml:6"}},
		{site: "basic", source: "content/tags/go/_index.md", want: []string{"robots=noindex from front matter content/tags/go/_index.md:3"}},
		{site: "multilingual", source: "content/news/hello.fr.md", want: []string{
			"robots=nosnippet from cascade content/news/_index.fr.md:6",
			"robots=noarchive from cascade hugo.toml:16 replaced by cascade content/news/_index.fr.md:6",
		}},
		{site: "multilingual", source: "content/news/_index.fr.md", want: []string{"robots=noarchive from cascade hugo.toml:16"}},
		{site: "multilingual", source: "content/news/hello.md"},
		{site: "mounts", source: "shared/docs/start.md", want: []string{"robots=noindex from cascade shared/docs/_index.md:4"}},
		{site: "langdirs", source: "content/en/blog/a.md", want: []string{"robots=noindex from front matter content/en/blog/a.md:4"}},
		{site: "langdirs", source: "content/fr/blog/a.md", want: []string{"robots=noindex from front matter content/fr/blog/a.md:3"}},
		// The config's cascade names both target (/blog/up) and _target (/never/**): target.
		{site: "langdirs", source: "content/en/blog/up.md", want: []string{"robots=noindex from cascade config/_default/hugo.toml:7"}},
	}
	for _, tc := range tests {
		t.Run(tc.site+"/"+tc.source, func(t *testing.T) {
			p := pagesBySource(t, openFixture(t, tc.site, nil))[tc.source]
			var got []string
			for _, in := range p.Inputs {
				s := fmt.Sprintf("%s=%s from %s %s:%d", in.Agent, in.Value, in.Source.Kind, in.Source.File, in.Source.Line)
				if by := in.ReplacedBy; by != nil {
					s += fmt.Sprintf(" replaced by %s %s:%d", by.Kind, by.File, by.Line)
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, in := range p.Inputs {
				if in.Source.Kind != rules.FromCascade && in.Source.Kind != rules.FromFrontMatter {
					t.Errorf("input %v: unexpected kind", in)
				}
			}
		})
	}
}

// TestHugoLanguageFolders: on a site whose languages each have their own contentDir (in
// config/_default/languages.<lang>.* files), the pages are those folders' files and no others:
// not content/ itself, not a folder no language uses (content/xx). The config cascade that
// names both target and _target is one warning.
func TestHugoLanguageFolders(t *testing.T) {
	s := openFixture(t, "langdirs", nil)
	m, err := s.Map()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range m.Pages {
		got = append(got, p.Lang()+" "+p.Source)
	}
	want := []string{"de content/de/_index.md", "en content/en/_index.md", "en content/en/blog/a.md",
		"en content/en/blog/draft.md", "en content/en/blog/up.md", "fr content/fr/blog/a.md"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	const warn = "config/_default/hugo.toml:8: config: cascade entry has both target and _target: robotsmith uses target (Hugo picks either, at random); remove one"
	if len(m.Warnings) != 1 || m.Warnings[0].Error() != warn {
		t.Errorf("warnings = %v, want one: %s", m.Warnings, warn)
	}
}

func TestHugoPagerParent(t *testing.T) {
	tests := []struct {
		site, url, want string
		ok              bool
	}{
		{site: "basic", url: "/blog/page/2/", want: "/blog/", ok: true},
		{site: "basic", url: "/page/3/", want: "/", ok: true},
		{site: "basic", url: "/tags/go/page/12/", want: "/tags/go/", ok: true},
		{site: "basic", url: "/blog/page/0/", ok: false},
		{site: "basic", url: "/blog/page/two/", ok: false},
		{site: "basic", url: "/blog/first/", ok: false},
		{site: "basic", url: "/page/", ok: false},
		{site: "ugly", url: "/blog/page/2/index.html", want: "/blog/index.html", ok: true},
		{site: "ugly", url: "/tags/go/page/2.html", want: "/tags/go.html", ok: true},
		{site: "multilingual", url: "/fr/news/page/2/", want: "/fr/news/", ok: true},
		{site: "edge", url: "/documentation/seite/2/", want: "/documentation/", ok: true},
		{site: "edge", url: "/seite/12/", want: "/", ok: true}, // the home Hugo made without a content file
		{site: "edge", url: "/golang/seite/2/", want: "/golang/", ok: true},
		{site: "edge", url: "/blog/page/2/", ok: false},
		{site: "nokinds", url: "/posts/p/n/2/index.html", want: "/posts/index.html", ok: true},
		{site: "nokinds", url: "/tags/go/p/n/2.html", want: "/tags/go.html", ok: true},
		{site: "nokinds", url: "/rust-lang/p/n/1/index.html", want: "/rust-lang/", ok: true},
		{site: "nokinds", url: "/posts/page/2/index.html", ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.site+tc.url, func(t *testing.T) {
			got, ok := pagerParent(t, openFixture(t, tc.site, nil), tc.url)
			if got != tc.want || ok != tc.ok {
				t.Errorf("PagerParent(%q) = %q, %v; want %q, %v", tc.url, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestHugoSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"My File", "My-File"},
		{"a  b", "a-b"},
		{" lead", "lead"},
		{"a - b", "a-b"},
		{"é!ü?x", "éüx"},
		{"a%20b%zz", "a%20bzz"},
		{"keep._~+#@-/", "keep._~+#@-/"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := hugoSanitize(tc.in); got != tc.want {
				t.Errorf("hugoSanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzHugoSanitize(f *testing.F) {
	for _, s := range []string{"My File", "a - b", "é!ü?x", "a%20b", "", "-", "  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := hugoSanitize(s)
		if strings.ContainsAny(got, " \t") {
			t.Errorf("hugoSanitize(%q) = %q keeps a space", s, got)
		}
		if again := hugoSanitize(got); again != got {
			t.Errorf("not idempotent: %q -> %q -> %q", s, got, again)
		}
	})
}

func ExampleSite_Pages_hugo() {
	s, err := Open("testdata/hugo/mounts", Options{Now: hugoNow})
	if err != nil {
		fmt.Println(err)
		return
	}
	pages, err := s.Pages()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pages {
		fmt.Println(p.Source, "->", p.Output, p.URL)
	}
	// Output:
	// pages/_index.md -> index.html /
	// pages/blog/one.md -> blog/one/index.html /blog/one/
	// shared/docs/_index.md -> docs/index.html /docs/
	// shared/docs/start.md -> docs/start/index.html /docs/start/
}

// pagerParent is the URL of the list page that the pager page at URL path u continues.
func pagerParent(t *testing.T, s *Site, u string) (string, bool) {
	t.Helper()
	m, err := s.Map()
	if err != nil {
		t.Fatalf("Map: %v", err)
	}
	rel := strings.TrimPrefix(u, "/")
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += "index.html"
	}
	o := m.Owner(rel)
	if o.Role != RolePager {
		return "", false
	}
	return o.Page.URL, true
}
