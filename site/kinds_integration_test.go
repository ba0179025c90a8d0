package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// Rules by kind and language (SPEC §2) on sites built by the real generators: with one rule for
// each kind and each language of the site, `explain` must name, for every file the generator
// wrote, exactly the kinds and the language the generator gave its page; and a rule by kind must
// put its directives on exactly the files of those kinds.

// hugoAccount replaces a fixture's 404 page with Hugo's own account of every page it made, in every
// language: its kind, its language, and the link of each of its output formats and of each of its
// bundle files.
const hugoAccount = `{{- $rows := slice -}}
{{- range hugo.Sites -}}{{- $pages := .Pages -}}{{- with .GetPage "/404" -}}{{- $pages = $pages | append . -}}{{- end -}}
{{- range $pages -}}
{{- $files := slice -}}
{{- range .OutputFormats -}}{{- $files = $files | append .RelPermalink -}}{{- end -}}
{{- range .Resources -}}{{- $files = $files | append .RelPermalink -}}{{- end -}}
{{- $rows = $rows | append (dict "kind" .Kind "lang" .Lang "files" $files) -}}
{{- end -}}{{- end -}}
{{- $rows | jsonify -}}`

// pageTruth is what the generator says a file's page is.
type pageTruth struct {
	kinds []string // the page's kinds, in the generator's words; none for a file of no page
	lang  string
}

// truthMark reads the kind and language the Hugo fixtures' templates write into every HTML page
// (data-truth on <body>) and JSON file ("truth"), pager pages included: kind|lang|file|pager.
var truthMark = regexp.MustCompile(`truth"?[=:] ?"([^"|]*)\|([^"|]*)\|[^"|]*\|[0-9]*"`)

// hugoTruths builds the fixture in dir with Hugo and returns what Hugo says each output file's page
// is: from the account for every page's formats and bundle files, from the markers for pager pages.
// A file that Hugo wrote for no page (static files, sitemaps, alias stubs) is not in it.
func hugoTruths(t *testing.T, hugo, dir string, args ...string) (out string, truths map[string]pageTruth) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "layouts", "404.html"), []byte(hugoAccount), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(hugo, append([]string{"--quiet"}, args...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, b)
	}
	s, err := site.Open(dir, site.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out = s.Output
	account, err := os.ReadFile(filepath.Join(out, "404.html"))
	if err != nil {
		matches, _ := filepath.Glob(filepath.Join(out, "*", "404.html"))
		if len(matches) == 0 {
			t.Fatalf("no 404.html with Hugo's account: %v", err)
		}
		account, _ = os.ReadFile(matches[0])
	}
	var rows []struct {
		Kind, Lang string
		Files      []string
	}
	if err := json.Unmarshal(account, &rows); err != nil {
		t.Fatalf("Hugo's account: %v", err)
	}
	truths = map[string]pageTruth{}
	for _, r := range rows {
		for _, link := range r.Files {
			rel := linkFile(link)
			// A bundle file shared by translations is published once, for the first language.
			if _, ok := truths[rel]; !ok && exists(filepath.Join(out, rel)) {
				truths[rel] = pageTruth{[]string{r.Kind}, r.Lang}
			}
		}
	}
	walkAll(t, out, func(rel string, b []byte) {
		if _, ok := truths[rel]; ok {
			return
		}
		if m := truthMark.FindSubmatch(b); m != nil && !refresh.Match(b) {
			truths[rel] = pageTruth{[]string{string(m[1])}, string(m[2])}
		}
	})
	return out, truths
}

// linkFile is the output file of a link relative to the site: index.html for a folder. Dot
// segments are resolved as a browser resolves them (RFC 3986 §5.2.4): Hugo gives a page whose slug
// climbs out of its section (slug: ../../x) the link /blog/../../x/ and writes it to x/.
func linkFile(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	u = (&url.URL{Path: "/"}).ResolveReference(u)
	p := strings.TrimPrefix(u.Path, "/")
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return p
}

func exists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// walkAll calls fn for every file under root (robotsmith's _headers aside) with its slash path and
// content.
func walkAll(t *testing.T, root string, fn func(rel string, b []byte)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "_headers" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fn(filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// selectorConfig is a robotsmith.yaml with one rule for each kind (the generator's, html and file)
// and each language, each giving its own crawler a value, so that explain tells them apart.
func selectorConfig(kinds, langs []string) string {
	var b strings.Builder
	b.WriteString("rules:\n")
	for _, k := range append(slices.Clone(kinds), "html", "file") {
		fmt.Fprintf(&b, "  - kind: %q\n    kind-%s: noarchive\n", k, k)
	}
	for _, l := range langs {
		fmt.Fprintf(&b, "  - lang: %q\n    lang-%s: noarchive\n", l, l)
	}
	return b.String()
}

// checkSelectors explains every file in truths and every other file under out, and checks that
// the rules matching each are exactly those of its page's kinds and language (plus html or file);
// redirect stubs are left out (they get no tag whatever matches them). It returns how many files
// each kind's rule reached.
func checkSelectors(t *testing.T, root, out string, truths map[string]pageTruth) map[string]int {
	t.Helper()
	var paths []string
	walkAll(t, out, func(rel string, b []byte) {
		if !refresh.Match(b) || !strings.HasSuffix(rel, ".html") {
			paths = append(paths, "/"+rel)
		}
	})
	sort.Strings(paths)
	es, err := pipeline.Explain(context.Background(), pipeline.Options{Root: root}, paths)
	if err != nil {
		t.Fatalf("explain: %v", err)
	}
	if len(es) != len(paths) {
		t.Fatalf("explain: %d explanations for %d paths", len(es), len(paths))
	}
	reached := map[string]int{}
	for i, e := range es {
		rel := strings.TrimPrefix(paths[i], "/")
		truth := truths[rel]
		want := slices.Clone(truth.kinds)
		if e.Class == "file" || strings.HasPrefix(e.Class, "not an HTML") {
			want = append(want, "file")
		} else {
			want = append(want, "html")
		}
		var got []string
		gotLang := ""
		for _, r := range e.Rules {
			switch {
			case r.Kind != "":
				got = append(got, r.Kind)
				reached[r.Kind]++
				if !strings.Contains(r.Text, "(kind: "+r.Kind+")") {
					t.Errorf("%s: rule %q does not name its kind", rel, r.Text)
				}
			case r.Lang != "":
				if gotLang != "" {
					t.Errorf("%s: two language rules match: %s and %s", rel, gotLang, r.Lang)
				}
				gotLang = r.Lang
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) || gotLang != truth.lang {
			t.Errorf("%s: rules matched kinds %v, lang %q; the generator says %v, lang %q", rel, got, gotLang, want, truth.lang)
		}
	}
	return reached
}

// TestKindRulesHugo: every kind of Hugo, in every language, on fixtures built by Hugo: a language
// naming its taxonomies in its own words (taxlangs), languages in folders and file names
// (multilingual), many output formats (formats).
func TestKindRulesHugo(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	for _, fx := range []struct {
		name  string
		args  []string
		kinds []string // the kinds the fixture must have reached
	}{
		{name: "taxlangs", kinds: []string{"home", "section", "page", "taxonomy", "term", "404", "html", "file"}},
		{name: "multilingual", kinds: []string{"home", "section", "page", "taxonomy", "term", "html", "file"}},
		{name: "formats", kinds: []string{"home", "section", "page", "taxonomy", "term", "html", "file"}},
		{name: "langdirs", args: []string{"-D"}},
		{name: "basic"},
	} {
		t.Run(fx.name, func(t *testing.T) {
			dir := t.TempDir()
			testtool.CopyTree(t, filepath.Join("testdata", "hugo", fx.name), dir)
			out, truths := hugoTruths(t, hugo, dir, fx.args...)
			s, err := site.Open(dir, site.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "robotsmith.yaml"), []byte(selectorConfig(s.Kinds(), s.Langs())), 0o644); err != nil {
				t.Fatal(err)
			}
			reached := checkSelectors(t, dir, out, truths)
			for _, k := range fx.kinds {
				if reached[k] == 0 {
					t.Errorf("no file of kind %s: the fixture does not test it", k)
				}
			}
			t.Logf("%s: files reached by each kind's rule: %v", fx.name, reached)
		})
	}
}

// TestTaxonomiesNoindexEveryLanguage is the rule a Yoast user sets with one switch: every
// language's taxonomy and term lists noindex, whatever the language calls its taxonomy
// (/fr/frtags/, /fa/fatags/), with their pager pages and feeds, and nothing else. `path: /tags/**`
// reached none of the French or Persian lists.
func TestTaxonomiesNoindexEveryLanguage(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "hugo", "taxlangs"), dir)
	out, truths := hugoTruths(t, hugo, dir)
	cfg := "rules:\n  - kind: [taxonomy, term]\n    robots: noindex, follow\n"
	if err := os.WriteFile(filepath.Join(dir, "robotsmith.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir, Write: true}); err != nil {
		t.Fatalf("build: %v", err)
	}
	headers, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	const tag = `<meta name="robots" content="noindex, follow">`
	noindexed := map[string]bool{}
	walkAll(t, out, func(rel string, b []byte) {
		if refresh.Match(b) || errorPage.MatchString(rel) {
			return // redirect stubs and error pages get no tag (SPEC §5)
		}
		var got bool
		if strings.HasSuffix(rel, ".html") {
			got = strings.Contains(string(b), tag)
		} else {
			got = strings.Contains(string(headers), "\n/"+rel+"\n  X-Robots-Tag: noindex, follow\n")
		}
		k := truths[rel].kinds
		want := slices.Contains(k, "taxonomy") || slices.Contains(k, "term")
		if got != want {
			t.Errorf("%s (kind %v, lang %q): noindex %v, want %v", rel, k, truths[rel].lang, got, want)
		}
		noindexed[rel] = got
	})
	for _, f := range []string{
		"fr/frtags/index.html", "fr/frtags/page/2/index.html", "fr/frtags/index.xml",
		"fr/frtags/allez/index.html", "fr/frtags/allez/page/3/index.html", "fr/frtags/allez/index.xml",
		"fa/fatags/index.html", "fa/fatags/dorud/page/2/index.html", "fa/fatags/salam/index.xml",
		"tags/index.html", "tags/go/page/2/index.html", "categories/news/index.xml",
	} {
		if !noindexed[f] {
			t.Errorf("%s: want noindex by the kind rule", f)
		}
	}
	rep, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir})
	if err != nil || rep.Changed != 0 || len(rep.Findings) != 0 {
		t.Errorf("check after build: err %v, would change %v, findings %v; want nothing", err, rep.ChangedFiles, rep.Findings)
	}
}

// jekyllSite builds the custom fixture (posts, a collection `projects`) with a draft, with
// `jekyll build --drafts`, and returns the output folder and what Jekyll says each file's page is.
func jekyllSite(t *testing.T, dir string) (out string, truths map[string]pageTruth) {
	t.Helper()
	bin := testtool.Jekyll(t)
	testtool.CopyTree(t, filepath.Join("testdata", "jekyll", "custom"), dir)
	truthPlugin, err := os.ReadFile(filepath.Join("testdata", "jekyll", "truth.rb"))
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range map[string]string{
		"_plugins/truth.rb":          string(truthPlugin),
		"_drafts/unfinished.md":      "---\ntitle: Unfinished\nlayout: default\n---\nwip\n",
		"_projects/gamma.md":         "---\ntitle: Gamma\nlayout: default\n---\ngamma\n",
		"notes/index.md":             "---\ntitle: Notes\nlayout: default\n---\nnotes\n",
		"assets/diagram.svg":         "<svg/>",
		"_posts/2024-04-01-later.md": "---\ntitle: Later\nlayout: default\n---\nlater\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	truthFile := filepath.Join(t.TempDir(), "truth.json")
	cmd := exec.Command(bin, "build", "--quiet", "--drafts")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JEKYLL_NO_BUNDLER_REQUIRE=true", "ROBOTSMITH_TRUTH="+truthFile)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jekyll build: %v\n%s", err, b)
	}
	var truth struct {
		Dest    string `json:"dest"`
		Entries []struct {
			Source *string `json:"source"`
			Dest   *string `json:"dest"`
			Kind   string  `json:"kind"`
		} `json:"entries"`
	}
	b, err := os.ReadFile(truthFile)
	if err == nil {
		err = json.Unmarshal(b, &truth)
	}
	if err != nil {
		t.Fatalf("Jekyll's account of its pages: %v", err)
	}
	truths = map[string]pageTruth{}
	for _, e := range truth.Entries {
		if e.Dest == nil {
			continue
		}
		rel, _ := filepath.Rel(truth.Dest, *e.Dest)
		var kinds []string
		switch {
		case e.Kind == "page" || e.Kind == "pager":
			kinds = []string{"pages"}
		case e.Source != nil && strings.Contains(filepath.ToSlash(*e.Source), "/_drafts/"):
			kinds = []string{"drafts", "posts"} // Jekyll's type for a draft is its collection's
		default:
			kinds = []string{e.Kind}
		}
		truths[filepath.ToSlash(rel)] = pageTruth{kinds: kinds}
	}
	return truth.Dest, truths
}

// TestKindRulesJekyll: every kind of Jekyll (pages, posts, drafts, a collection) on a site Jekyll
// built: explain names exactly the kinds Jekyll gives each file's page.
func TestKindRulesJekyll(t *testing.T) {
	dir := t.TempDir()
	out, truths := jekyllSite(t, dir)
	s, err := site.Open(dir, site.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Langs()) != 0 {
		t.Fatalf("Jekyll languages: %v, want none", s.Langs())
	}
	if err := os.WriteFile(filepath.Join(dir, "robotsmith.yaml"), []byte(selectorConfig(s.Kinds(), nil)), 0o644); err != nil {
		t.Fatal(err)
	}
	reached := checkSelectors(t, dir, out, truths)
	for _, k := range []string{"pages", "posts", "drafts", "projects", "html", "file"} {
		if reached[k] == 0 {
			t.Errorf("no file of kind %s: the fixture does not test it", k)
		}
	}
	t.Logf("files reached by each kind's rule: %v", reached)
}

// TestPostsAndCollectionRulesJekyll: a rule for the posts and one for a collection put their
// directives on exactly the pages Jekyll says are posts (a draft built with --drafts among them)
// and the collection's documents, whatever their permalinks.
func TestPostsAndCollectionRulesJekyll(t *testing.T) {
	dir := t.TempDir()
	out, truths := jekyllSite(t, dir)
	cfg := "rules:\n  - kind: posts\n    robots: noindex, follow\n  - kind: projects\n    googlebot: nosnippet\n"
	if err := os.WriteFile(filepath.Join(dir, "robotsmith.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir, Write: true}); err != nil {
		t.Fatalf("build: %v", err)
	}
	posts, projects := 0, 0
	walkFiles(t, out, ".html", func(rel string, b []byte) {
		if refresh.Match(b) || errorPage.MatchString(rel) {
			return
		}
		k := truths[rel].kinds
		page := string(b)
		noindex := strings.Contains(page, `<meta name="robots" content="noindex, follow">`)
		nosnippet := regexp.MustCompile(`<meta name="googlebot" content="[^"]*nosnippet`).MatchString(page)
		if want := slices.Contains(k, "posts"); noindex != want {
			t.Errorf("%s (kind %v): noindex %v, want %v", rel, k, noindex, want)
		} else if want {
			posts++
		}
		if want := slices.Contains(k, "projects"); nosnippet != want {
			t.Errorf("%s (kind %v): googlebot nosnippet %v, want %v", rel, k, nosnippet, want)
		} else if want {
			projects++
		}
	})
	if posts < 4 || projects < 3 {
		t.Errorf("posts noindexed %d (want the 3 posts and the draft), projects given nosnippet %d (want 3)", posts, projects)
	}
	rep, err := pipeline.Run(context.Background(), pipeline.Options{Root: dir})
	if err != nil || rep.Changed != 0 || len(rep.Findings) != 0 {
		t.Errorf("check after build: err %v, would change %v, findings %v; want nothing", err, rep.ChangedFiles, rep.Findings)
	}
}
