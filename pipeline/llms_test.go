package pipeline

import (
	"context"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/llmstxt"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
	"github.com/robotsmith/robotsmith/watch"
)

var updateLLMs = flag.Bool("update-llms", false, "rewrite testdata/llms/*.golden from a build of the fixture")

// llmsSite copies testdata/llms/site, a Hugo-layout site whose theme wrote llms.txt and
// llms-full.txt, into a temporary folder with the given robotsmith.yaml. Its pages: /docs/guide/
// (with a Markdown twin, index.md), /docs/secret/ (noindex), /blog/post/, /blog/draft/ (a draft:
// no file), /private/x/ (robots.txt disallows /private/ for every crawler), and a 404 page.
func llmsSite(t *testing.T, cfg string) string {
	t.Helper()
	src := filepath.Join("testdata", "llms", "site")
	dir := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		writeTree(t, dir, map[string]string{filepath.ToSlash(rel): string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg != "" {
		writeTree(t, dir, map[string]string{"robotsmith.yaml": cfg})
	}
	return dir
}

// llmsGolden compares got with testdata/llms/name (-update-llms rewrites it).
func llmsGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "llms", name)
	if *updateLLMs {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestLLMsTxt -update-llms writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestLLMsTxt: a build keeps llms.txt and llms-full.txt in agreement with the other signals, as
// llms_txt says: prune (the default) removes the links to the noindex page, the draft (no file),
// the page robots.txt disallows for every AI crawler and the missing page, keeping every other
// byte; keep leaves the files and reports each such link; generate writes robotsmith's llms.txt
// from the indexable pages, the theme's own text pruned around it; off leaves both alone; input:
// no prunes every link to the site. A second build changes nothing.
func TestLLMsTxt(t *testing.T) {
	theme, err := os.ReadFile(filepath.Join("testdata", "llms", "site", "public", "llms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	themeFull, err := os.ReadFile(filepath.Join("testdata", "llms", "site", "public", "llms-full.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc, cfg        string
		llms, full       string // goldens; "" for the theme's file unchanged
		findings         []string
		remove           string // a file of the fixture to remove first
		given            map[string]string
		changed          bool
		secondBuildWrite bool
	}{
		{desc: "prune by default", llms: "prune.llms.txt", full: "prune.llms-full.txt", changed: true},
		{desc: "keep", cfg: "llms_txt: keep\n", findings: []string{
			"public/llms.txt:5: llms.txt links https://example.org/docs/secret/, which is noindex (front matter robots at content/docs/secret.md:3); with `llms_txt: keep` robotsmith leaves it there",
			"public/llms.txt:10: llms.txt links https://example.org/docs/secret/, which is noindex",
			"public/llms.txt:15: llms.txt links /blog/draft/, which has no file in public",
			"public/llms.txt:18: llms.txt links private/x/, which is disallowed by robots.txt for every AI crawler of the catalogue (public/robots.txt:2: Disallow: /private/)",
			"public/llms.txt:23: llms.txt links https://example.org/gone/, which has no file in public",
			"public/llms-full.txt:9: llms-full.txt links https://example.org/docs/secret/, which is noindex",
		}},
		{desc: "generate", cfg: "llms_txt: generate\n", llms: "generate.llms.txt", full: "prune.llms-full.txt", changed: true},
		{desc: "generate without a theme's file", cfg: "llms_txt: generate\n", remove: "public/llms.txt", llms: "generate-new.llms.txt", full: "prune.llms-full.txt", changed: true},
		// llmstxt.org requires the H1: without the home page's title, the site's own (hugo.toml's
		// title), else the host name of its base URL.
		{desc: "generate, the home page noindex", cfg: "llms_txt: generate\nrules:\n  - path: /\n    robots: noindex\n", remove: "public/llms.txt",
			llms: "generate-home-noindex.llms.txt", full: "prune.llms-full.txt", changed: true},
		{desc: "generate, the home page noindex and no site title", cfg: "llms_txt: generate\nrules:\n  - path: /\n    robots: noindex\n", remove: "public/llms.txt",
			given: map[string]string{"hugo.toml": "baseURL = \"https://example.org/\"\n"},
			llms:  "generate-host.llms.txt", full: "prune.llms-full.txt", changed: true},
		// A section is headed by its list page's title where that page is listed, else by its folder.
		{desc: "generate, the sections' list pages", cfg: "llms_txt: generate\nrules:\n  - path: /docs/\n    robots: noindex\n", remove: "public/llms.txt",
			given: map[string]string{
				"public/blog/index.html": "<!DOCTYPE html>\n<html><head><title>The blog | Fixture site</title></head><body></body></html>\n",
				"public/docs/index.html": "<!DOCTYPE html>\n<html><head><title>Docs | Fixture site</title></head><body></body></html>\n",
			},
			llms: "generate-sections.llms.txt", full: "prune.llms-full.txt", changed: true},
		{desc: "off", cfg: "llms_txt: off\n"},
		{desc: "input no", cfg: "ai:\n  input: no\n", llms: "input-no.llms.txt", full: "input-no.llms-full.txt", changed: true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := llmsSite(t, tc.cfg)
			writeTree(t, dir, tc.given)
			if tc.remove != "" {
				if err := os.Remove(filepath.Join(dir, tc.remove)); err != nil {
					t.Fatal(err)
				}
			}
			rep, err := Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil {
				t.Fatal(err)
			}
			tree := readTree(t, dir)
			for _, f := range []struct{ file, golden, theme string }{
				{"public/llms.txt", tc.llms, string(theme)},
				{"public/llms-full.txt", tc.full, string(themeFull)},
			} {
				if f.golden == "" {
					if tree[f.file] != f.theme {
						t.Errorf("%s changed:\n%s", f.file, tree[f.file])
					}
					continue
				}
				llmsGolden(t, f.golden, tree[f.file])
			}
			var got []string
			for _, p := range rep.Findings {
				if p.Code == problem.LLMsTxtListsUnindexable {
					got = append(got, strings.ReplaceAll(p.Error(), dir+string(filepath.Separator), ""))
				}
			}
			if len(got) != len(tc.findings) {
				t.Errorf("findings: got %d %q, want %d", len(got), got, len(tc.findings))
			}
			for _, w := range tc.findings {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
					t.Errorf("findings %q, want one starting %q", got, w)
				}
			}
			if changed := slices.Contains(rep.ChangedFiles, "llms.txt"); changed != tc.changed {
				t.Errorf("llms.txt among the changed files: got %v, want %v (%q)", changed, tc.changed, rep.ChangedFiles)
			}
			again, err := Run(context.Background(), Options{Root: dir, Write: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range again.ChangedFiles {
				if strings.HasPrefix(f, "llms") {
					t.Errorf("a second build changed %s again", f)
				}
			}
		})
	}
}

// TestLiveLLMsTxt: watch mode keeps llms.txt in step: an edit of front matter that makes a page
// noindex removes its link on the next batch, the generator writing llms.txt again has it pruned
// again, and with llms_txt: generate the page leaves robotsmith's list.
func TestLiveLLMsTxt(t *testing.T) {
	const theme = "# Site\n\n- [A](https://example.org/blog/a/): alpha\n- [B](/blog/b/): beta\n"
	tests := []struct {
		desc, cfg string
		// after the edit, llms.txt holds want and not gone
		want, gone string
	}{
		{"prune", "", "- [B](/blog/b/): beta\n", "/blog/a/"},
		{"generate", "llms_txt: generate\n", "- [B](https://example.org/blog/b/)", "[A](https://example.org/blog/a/)"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := liveSite(t)
			writeTree(t, dir, map[string]string{"public/llms.txt": theme})
			if tc.cfg != "" {
				writeTree(t, dir, map[string]string{"robotsmith.yaml": "rules:\n  - path: /files/**\n    robots: noindex\n" + tc.cfg})
			}
			llms := filepath.Join(dir, "public", "llms.txt")
			l, own := startLive(t, dir)
			if !holds(t, llms, "blog/a/") {
				t.Fatalf("the first pass left /blog/a/ out of llms.txt")
			}
			writeTree(t, dir, map[string]string{"content/blog/a.md": "---\ntitle: A\nrobots: noindex\n---\nalpha\n"})
			u := l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, contentRoot, "blog/a.md", watch.Write)}})
			if len(u.Errs) > 0 {
				t.Fatal(u.Errs)
			}
			if !holds(t, llms, tc.want) || holds(t, llms, tc.gone) {
				b, _ := os.ReadFile(llms)
				t.Errorf("after the edit, llms.txt:\n%s\nwant %q and no %q", b, tc.want, tc.gone)
			}
			if !slices.Contains(u.Wrote, "llms.txt") || !own.Same(llms) {
				t.Errorf("llms.txt not among the files written (%q), or not recorded as robotsmith's", u.Wrote)
			}
			// The generator writes its llms.txt again: pruned again on the next batch.
			writeTree(t, dir, map[string]string{"public/llms.txt": theme})
			u = l.Apply(context.Background(), watch.Batch{Changes: []watch.Change{change(t, l, outputRoot, "llms.txt", watch.Write)}})
			if len(u.Errs) > 0 {
				t.Fatal(u.Errs)
			}
			if holds(t, llms, tc.gone) {
				b, _ := os.ReadFile(llms)
				t.Errorf("the generator's llms.txt again, not pruned:\n%s", b)
			}
		})
	}
}

// TestExplainLLMsAndBlock: explain says which links of llms.txt point at the URL and why a build
// prunes them, and sums up the crawlers a category of ai.block disallows in one line, each listed
// (by the catalogue's spelling, Google's reading beside it where they differ) with -v or --agent.
func TestExplainLLMsAndBlock(t *testing.T) {
	dir := llmsSite(t, "ai:\n  train: no\n  block: [training]\n")
	tests := []struct {
		path, agent string
		verbose     bool
		want, not   []string
	}{
		{path: "/docs/secret/", want: []string{
			"  llms.txt: linked at " + filepath.Join(dir, "public", "llms.txt") + ":5, " + filepath.Join(dir, "public", "llms.txt") + ":10, " +
				filepath.Join(dir, "public", "llms-full.txt") + ":9, which it is noindex (front matter robots at content/docs/secret.md:3): llms_txt prunes such a link (keep reports it)\n",
			"    ai.block training: 21 crawlers may not crawl (Disallow: /, lines ",
			"; -v or --agent lists them\n",
		}, not: []string{"GPTBot", "AI2Bot", "    ai "}},
		{path: "/blog/post/", want: []string{"  llms.txt: linked at " + filepath.Join(dir, "public", "llms.txt") + ":14\n"}},
		{path: "/", not: []string{"llms.txt:"}},
		{path: "/blog/post/", verbose: true, want: []string{
			"    ai.block training: 21 crawlers may not crawl:\n",
			"      GPTBot                        may not crawl  ",
			"      AI2Bot (read as ai)           may not crawl  ",
			"      img2dataset (read as img)     may not crawl  ",
		}},
		{path: "/blog/post/", agent: "GPTBot", want: []string{"      Google-Extended ", "  crawler GPTBot: OpenAI; training\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.agent+map[bool]string{true: " -v"}[tc.verbose], func(t *testing.T) {
			opt := Options{Root: dir}
			if tc.agent != "" {
				opt.Agents = []string{tc.agent}
			}
			es, err := Explain(context.Background(), opt, []string{tc.path})
			if err != nil {
				t.Fatal(err)
			}
			got := es[0].Text()
			if tc.verbose {
				got = es[0].VerboseText()
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("explain lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("explain has %q:\n%s", n, got)
				}
			}
		})
	}
}

// TestHugoThemeLLMsTxt builds testdata/llms/hugo-theme with the real Hugo, whose theme writes
// llms.txt as the hextra theme does (an llms output format of the home page that lists every
// regular page of each section, and a Markdown output format with ugly URLs: docs/guide.md beside
// docs/guide/index.html). Hugo leaves the draft out, and lists the pages whose front matter says
// robots: noindex (Hugo does not read robotsmith's key): built with the hextra theme itself
// (v0.12, its layouts/llms.txt), a page of `robots: noindex` was listed the same way, as
// "- [Secret](https://example.org/docs/secret/): Not for anyone.". robotsmith prunes those links
// (prune), or writes its own list with each page's Markdown twin (generate), each section headed
// by the <title> Hugo wrote in its list page ("Blog | Theme fixture").
func TestHugoThemeLLMsTxt(t *testing.T) {
	hugo := hugoBinary(t)
	for _, tc := range []struct{ mode, golden string }{
		{"prune", "hugo-theme.prune.llms.txt"},
		{"generate", "hugo-theme.generate.llms.txt"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			dir := t.TempDir()
			testtool.CopyTree(t, filepath.Join("testdata", "llms", "hugo-theme"), dir)
			writeTree(t, dir, map[string]string{"robotsmith.yaml": "llms_txt: " + tc.mode + "\n"})
			if out, err := exec.Command(hugo, "--quiet", "-s", dir).CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, out)
			}
			theme := readTree(t, dir)["public/llms.txt"]
			for _, leak := range []string{"(https://example.org/docs/secret/)", "(https://example.org/blog/members/)"} {
				if !strings.Contains(theme, leak) {
					t.Fatalf("the theme's llms.txt does not list %s, which this test is about:\n%s", leak, theme)
				}
			}
			if strings.Contains(theme, "draft") {
				t.Errorf("Hugo listed the draft:\n%s", theme)
			}
			if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
				t.Fatal(err)
			}
			llmsGolden(t, tc.golden, readTree(t, dir)["public/llms.txt"])
		})
	}
}

// TestJekyllPluginLLMsTxt builds testdata/llms/jekyll-plugin with the real Jekyll, whose plug-in
// writes llms.txt and llms-full.txt after the site, as www.ruby-lang.org's _plugins/llms.rb does:
// each page with a title, linked to the Markdown alternate it writes beside the page
// (en/community/members.md for en/community/members/index.html), and in llms-full.txt a bare
// "Source: URL" line per page. Jekyll leaves the draft out; the plug-in lists the page whose front
// matter says robots: noindex. robotsmith gives the alternate its page's noindex, and prunes the
// list item and the bare URL (with the space before it: "Source:" stays).
func TestJekyllPluginLLMsTxt(t *testing.T) {
	dir := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "llms", "jekyll-plugin"), dir)
	jekyllBuild(t, dir)
	site := readTree(t, dir)
	if !strings.Contains(site["_site/llms.txt"], "(https://example.org/en/community/members.md)") {
		t.Fatalf("the plug-in did not list the noindex page, which this test is about:\n%s", site["_site/llms.txt"])
	}
	if _, err := Run(context.Background(), Options{Root: dir, Write: true}); err != nil {
		t.Fatal(err)
	}
	site = readTree(t, dir)
	llmsGolden(t, "jekyll-plugin.llms.txt", site["_site/llms.txt"])
	llmsGolden(t, "jekyll-plugin.llms-full.txt", site["_site/llms-full.txt"])
}

// TestLLMsSections: a section is headed by its list page's title, unless that would merge it with
// another section (a title two share, another folder's name, the top pages' heading).
func TestLLMsSections(t *testing.T) {
	tests := []struct {
		desc     string
		sections []string // each page's folder
		lists    map[string]string
		want     []string
	}{
		{"no list page", []string{"", "blog", "docs"}, nil, []string{"", "blog", "docs"}},
		{"a list page's title", []string{"", "blog", "blog", "docs"}, map[string]string{"blog": "Blog"}, []string{"", "Blog", "Blog", "docs"}},
		{"a title two share", []string{"blog", "news"}, map[string]string{"blog": "Posts", "news": "Posts"}, []string{"blog", "news"}},
		{"another folder's name", []string{"blog", "docs"}, map[string]string{"blog": "docs"}, []string{"blog", "docs"}},
		{"the top pages' heading", []string{"", "blog"}, map[string]string{"blog": llmstxt.RootSection}, []string{"", "blog"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			pages := make([]llmstxt.Page, len(tc.sections))
			for i, s := range tc.sections {
				pages[i].Section = s
			}
			llmsSections(pages, tc.lists)
			var got []string
			for _, pg := range pages {
				got = append(got, pg.Section)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("sections: got %q, want %q", got, tc.want)
			}
		})
	}
}
