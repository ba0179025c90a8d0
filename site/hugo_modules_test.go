package site

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestHugoModules: a theme's or module's outputFormats and mediaTypes join the site's from every
// place Hugo finds a module on disk; the site's own definition of a name wins; the modules'
// outputs do not reach the site.
func TestHugoModules(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "site")
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	format := func(name string) string {
		return "[outputFormats." + name + "]\n  mediaType = \"text/plain\"\n  baseName = \"" + name + "\"\n"
	}
	write("hugo.toml", `theme = "classic"
[module]
  workspace = "hugo.work"
  replacements = "example.com/replaced -> ../elsewhere/replaced"
  [[module.imports]]
    path = "example.com/bygomod"
  [[module.imports]]
    path = "example.com/byworkspace"
  [[module.imports]]
    path = "example.com/replaced"
  [[module.imports]]
    path = "example.com/vendored"
  [[module.imports]]
    path = "example.com/disabled"
    disable = true
[outputFormats.shared]
  mediaType = "application/json"
  baseName = "site-wins"
`)
	write("go.mod", "module example.com/site\n\ngo 1.21\n\nreplace example.com/bygomod => ../mods/bygomod\n")
	write("hugo.work", "go 1.21\n\nuse ../ws\n")
	write("../ws/go.mod", "module example.com/byworkspace\n")
	write("../ws/hugo.toml", format("workspacefmt")+"[outputs]\n  page = [\"workspacefmt\"]\n")
	write("../mods/bygomod/config.toml", format("gomodfmt")+format("shared"))
	// A replacement's folder is relative to themesDir.
	write("elsewhere/replaced/hugo.yaml", "outputFormats:\n  replacedfmt: {mediaType: text/x-r, baseName: r}\nmediaTypes:\n  text/x-r: {suffixes: [rr]}\n")
	write("_vendor/example.com/vendored/hugo.toml", "theme = \"nested\"\n"+format("vendoredfmt"))
	write("themes/classic/config/_default/hugo.toml", format("themefmt"))
	write("themes/nested/hugo.toml", format("nestedfmt"))
	write("themes/example.com/disabled/hugo.toml", format("disabledfmt"))
	s, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for name, f := range s.hugo.formats {
		if !strings.HasSuffix(name, "fmt") && name != "shared" {
			continue
		}
		got = append(got, name+"="+f.baseName+f.suffix)
	}
	sort.Strings(got)
	want := "gomodfmt=gomodfmt.txt nestedfmt=nestedfmt.txt replacedfmt=r.rr shared=site-wins.json themefmt=themefmt.txt vendoredfmt=vendoredfmt.txt workspacefmt=workspacefmt.txt"
	if strings.Join(got, " ") != want {
		t.Errorf("formats:\n got  %s\n want %s", strings.Join(got, " "), want)
	}
	if got := strings.Join(s.hugo.kindOutputs["page"], ","); got != "html" {
		t.Errorf("page outputs = %s, want html (a module's outputs do not reach the site)", got)
	}
}

// TestHugoModuleCache: a module that Hugo took from its own module cache (`hugo mod get`, the
// usual way a site uses a theme module) is read from there, at the version the site's go.mod
// requires, as Hugo's Go runs find it (GOPATH set to the cache's modules folder).
func TestHugoModuleCache(t *testing.T) {
	const fmtConfig = "[outputFormats.print]\n  mediaType = \"text/html\"\n  path = \"_print\"\n"
	tests := []struct {
		desc   string
		env    map[string]string // $BASE in a value is the test's folder
		config string            // the site's hugo.toml, after its module import
		gomod  string            // the site's go.mod after its module line
		module string            // where the module's hugo.toml is, under $BASE
		want   bool              // the format is read
	}{
		{
			desc:   "HUGO_CACHEDIR, the version go.mod requires",
			env:    map[string]string{"HUGO_CACHEDIR": "$BASE/hc"},
			gomod:  "require example.com/theme v1.2.0 // indirect\n",
			module: "hc/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "HUGO_CACHEDIR over cacheDir in the config",
			env:    map[string]string{"HUGO_CACHEDIR": "$BASE/hc"},
			config: "cacheDir = \"/nonexistent/elsewhere\"\n",
			gomod:  "require example.com/theme v1.2.0\n",
			module: "hc/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "cacheDir in the config",
			config: "cacheDir = \"$BASE/fromconfig\"\n",
			gomod:  "require example.com/theme v1.2.0\n",
			module: "fromconfig/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "the user's cache folder, XDG_CACHE_HOME",
			env:    map[string]string{"XDG_CACHE_HOME": "$BASE/xdg", "HOME": "$BASE/home"},
			gomod:  "require example.com/theme v1.2.0\n",
			module: "xdg/hugo_cache/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "the user's cache folder, HOME/.cache",
			env:    map[string]string{"HOME": "$BASE/home"},
			gomod:  "require example.com/theme v1.2.0\n",
			module: "home/.cache/hugo_cache/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "caches.modules.dir in the config",
			env:    map[string]string{"HUGO_CACHEDIR": "$BASE/hc"},
			config: "[caches.modules]\n  dir = \":cacheDir/mods\"\n",
			gomod:  "require example.com/theme v1.2.0\n",
			module: "hc/mods/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "upper case in a module path, escaped as Go escapes it",
			env:    map[string]string{"HUGO_CACHEDIR": "$BASE/hc"},
			config: "", // the import below is example.com/theme; this case imports its own
			gomod:  "require example.com/Theme v1.2.0\n",
			module: "hc/modules/filecache/modules/pkg/mod/example.com/!theme@v1.2.0",
			want:   true,
		},
		{
			desc:   "another version than go.mod requires: not the site's",
			env:    map[string]string{"HUGO_CACHEDIR": "$BASE/hc"},
			gomod:  "require example.com/theme v1.3.0\n",
			module: "hc/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
		},
		{
			desc:   "a replace line wins over the cache",
			env:    map[string]string{"HUGO_CACHEDIR": "$BASE/hc"},
			gomod:  "require example.com/theme v1.2.0\n\nreplace example.com/theme => ../nothing-here\n",
			module: "hc/modules/filecache/modules/pkg/mod/example.com/theme@v1.2.0",
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "site")
			write := func(p, body string) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			imp := "example.com/theme"
			if strings.Contains(tc.gomod, "Theme") {
				imp = "example.com/Theme"
			}
			write(filepath.Join(root, "hugo.toml"), strings.ReplaceAll(tc.config, "$BASE", base)+
				"[module]\n  [[module.imports]]\n    path = \""+imp+"\"\n")
			write(filepath.Join(root, "go.mod"), "module example.com/site\n\ngo 1.21\n\n"+tc.gomod)
			write(filepath.Join(base, filepath.FromSlash(tc.module), "hugo.toml"), fmtConfig)
			env := func(k string) string { return strings.ReplaceAll(tc.env[k], "$BASE", base) }
			s, err := Open(root, Options{Env: env})
			if err != nil {
				t.Fatal(err)
			}
			f, got := s.hugo.formats["print"]
			if got != tc.want {
				t.Fatalf("format print read: got %v, want %v", got, tc.want)
			}
			if got && f.path != "_print" {
				t.Errorf("format print's path: got %q, want _print", f.path)
			}
		})
	}
}

// TestUnknownOutputFormat: Hugo refuses an `outputs` name that no output format has ("unknown
// output format" in the configuration, "OutputFormat with key not found" in front matter), so a
// site it built defines every name it uses. A name robotsmith finds in no configuration it could
// read is defined by one it could not read (a module it did not find): the files Hugo writes in
// that format would be placed nowhere and decided as pages of their own, public where their page
// is not, and differently from a run that finds the module. That is an error at the name's line.
func TestUnknownOutputFormat(t *testing.T) {
	const theme = "[outputFormats.print]\n  mediaType = \"text/html\"\n  path = \"_print\"\n"
	tests := []struct {
		desc  string
		files map[string]string // under the site's folder
		want  string            // a part of the error; "" for none
		also  string            // another part of it
	}{
		{
			desc: "the module that defines it is not found",
			files: map[string]string{
				"hugo.toml": "title = \"x\"\n[module]\n  [[module.imports]]\n    path = \"example.com/theme\"\n[outputs]\n  home = [\"html\", \"print\", \"rss\"]\n",
			},
			want: `hugo.toml:6: outputs: home: output format "print" is defined by no configuration robotsmith could read`,
			also: "example.com/theme",
		},
		{
			desc: "in a file of config/_default",
			files: map[string]string{
				"config/_default/hugo.toml":    "title = \"x\"\n",
				"config/_default/outputs.yaml": "home: [html]\nsection:\n  - html\n  - print\n",
			},
			want: `config/_default/outputs.yaml:4: outputs: section: output format "print"`,
		},
		{
			desc: "the module is found",
			files: map[string]string{
				"hugo.toml":                          "[module]\n  [[module.imports]]\n    path = \"example.com/theme\"\n[outputs]\n  home = [\"html\", \"print\"]\n",
				"themes/example.com/theme/hugo.toml": theme,
			},
		},
		{
			desc: "for a kind the site disables, which Hugo does not render",
			files: map[string]string{
				"hugo.toml": "disableKinds = [\"taxonomy\"]\n[outputs]\n  taxonomy = [\"html\", \"print\"]\n",
			},
		},
		{
			desc: "in a page's front matter",
			files: map[string]string{
				"hugo.toml":         "title = \"x\"\n",
				"content/_index.md": "---\ntitle: home\noutputs: [html, print]\n---\n",
				"content/blog/a.md": "---\ntitle: a\n---\n",
			},
			want: `content/_index.md: outputs: output format "print" is defined by no configuration robotsmith could read`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			root := t.TempDir()
			testtool.WriteFiles(t, root, tc.files)
			s, err := Open(root, Options{})
			if err == nil {
				_, err = s.Map()
			}
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("got error %v, want none", err)
			case tc.want != "" && err == nil:
				t.Fatalf("got no error, want one with %q", tc.want)
			case tc.want != "" && (!strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.also)):
				t.Errorf("error:\n got  %v\n want %q and %q in it", err, tc.want, tc.also)
			}
		})
	}
}

// TestMissingModuleWarning: a module robotsmith does not find is a warning at the line that
// imports it, since the output formats and media types it may define are not read.
func TestMissingModuleWarning(t *testing.T) {
	tests := []struct {
		desc  string
		files map[string]string
		want  []string
	}{
		{
			desc:  "module.imports",
			files: map[string]string{"hugo.toml": "title = \"x\"\n[module]\n  [[module.imports]]\n    path = \"example.com/gone\"\n"},
			want:  []string{"hugo.toml:4: module example.com/gone: its output formats and media types are not read: it is not where Hugo looks for it"},
		},
		{
			desc:  "theme",
			files: map[string]string{"hugo.yaml": "title: x\ntheme: [found, gone]\n", "themes/found/hugo.toml": "title = \"t\"\n"},
			want:  []string{"hugo.yaml:2: module gone: its output formats and media types are not read"},
		},
		{
			desc: "a module's own import",
			files: map[string]string{
				"hugo.toml":              "theme = \"found\"\n",
				"themes/found/hugo.toml": "[module]\n  [[module.imports]]\n    path = \"example.com/gone\"\n",
			},
			want: []string{"themes/found/hugo.toml:3: module example.com/gone: its output formats and media types are not read"},
		},
		{
			desc:  "every module found",
			files: map[string]string{"hugo.toml": "theme = \"found\"\n", "themes/found/hugo.toml": "title = \"t\"\n"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			root := t.TempDir()
			testtool.WriteFiles(t, root, tc.files)
			s, err := Open(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Map()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range m.Warnings {
				got = append(got, w.Error())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("warnings:\n got  %q\n want %q", got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("warning %d:\n got  %s\n want %s...", i, got[i], w)
				}
			}
		})
	}
}

// TestHugoModuleContent: the content roots a site's themes and modules mount, after the
// project's, as Hugo mounts them (modules/collect.go applyMounts): an import's own mounts, else
// those its module's configuration declares, else its content folder when it has one; nothing
// for an import with noMounts. Each root is walked by Map and listed by Sources. Hugo v0.165.0
// built this site (with two layouts added) into a/, d/, p/ and fr/guides/g/, and none of the
// never.md files.
func TestHugoModuleContent(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page := "---\ntitle: x\n---\n"
	write("hugo.toml", `theme = ["plain", "declares"]
[languages.en]
  weight = 1
[languages.fr]
  weight = 2
[[module.imports]]
  path = "byimport"
  [[module.imports.mounts]]
    source = "docs"
    target = "content/guides"
    lang = "fr"
[[module.imports]]
  path = "nomounts"
  noMounts = true
`)
	write("content/a.md", page)
	write("themes/plain/content/p.md", page)
	write("themes/declares/hugo.toml", "[[module.mounts]]\n  source = \"pages\"\n  target = \"content\"\n")
	write("themes/declares/pages/d.md", page)
	write("themes/declares/content/never.md", page) // its own mounts leave content/ out
	write("themes/byimport/docs/g.md", page)
	write("themes/byimport/content/never.md", page) // the import's mounts leave content/ out
	write("themes/nomounts/content/never.md", page)
	// The project's docs/_index.md hides the theme's, and its cascade: Hugo v0.165.0 built
	// docs/one/ without the theme's robots.
	write("content/docs/_index.md", page)
	write("content/docs/one.md", page)
	write("themes/plain/content/docs/_index.md", "---\ntitle: theme\ncascade:\n  robots: noindex\n---\n")
	s, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, src := range s.Sources() {
		if src.Kind == SourceContent {
			rel, _ := filepath.Rel(root, src.Path)
			got = append(got, filepath.ToSlash(rel)+" "+src.Lang)
		}
	}
	want := []string{"content ", "themes/plain/content ", "themes/declares/pages ", "themes/byimport/docs fr"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("content roots:\n got %q\nwant %q", got, want)
	}
	m, err := s.Map()
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, p := range m.Pages {
		pages = append(pages, p.Source+" "+p.Lang()+" "+p.Output)
	}
	sort.Strings(pages)
	wantPages := []string{
		"content/a.md en a/index.html",
		"content/docs/_index.md en docs/index.html",
		"content/docs/one.md en docs/one/index.html",
		"themes/byimport/docs/g.md fr fr/guides/g/index.html",
		"themes/declares/pages/d.md en d/index.html",
		"themes/plain/content/p.md en p/index.html",
	}
	if strings.Join(pages, ",") != strings.Join(wantPages, ",") {
		t.Errorf("pages:\n got %q\nwant %q", pages, wantPages)
	}
	if p := m.PageOf("content/docs/one.md"); p == nil || len(p.Inputs) != 0 {
		t.Errorf("content/docs/one.md: inputs %v, want none (the theme's cascade is hidden)", p)
	}
}
