package site

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// hugoFixtures are the sites under testdata/hugo that the integration test builds with the real
// Hugo, with the environment each is built in.
var hugoFixtures = []struct {
	name string
	env  map[string]string
	args []string // hugo's flags (-D): robotsmith is not told them, the output folder is the truth
	// links are symbolic links the test makes in its copy (CopyFS copies none): name -> target.
	links map[string]string
}{
	{name: "basic"},
	{name: "permalinks"},
	{name: "ugly"},
	{name: "multilingual"},
	{name: "configdir", env: map[string]string{"HUGO_ENVIRONMENT": "staging"}},
	{name: "mounts"},
	{name: "edge"},
	{name: "nokinds"},
	{name: "langdirs", args: []string{"-D"}},
	{name: "formats"},
	{name: "taxlangs"},
	{name: "book"},      // hugo-book's layout: a contentDir per language, config/_default with files per language and environment
	{name: "bookmount"}, // each language's folder mounted as content, another folder mounted under it, a theme
	{name: "links", links: map[string]string{
		"content":              "pages",
		"pages/blog/linked.md": "../../outside/linked.md",
		"pages/blog/folder":    "../../outside/folder",
	}},
}

// hugoTruthLayout replaces each fixture's 404 page, in the copy the test builds, with Hugo's own
// account of every page it made in every language: its kind, language, content file (none for
// a page Hugo made without one) and the link of each of its output formats. Pager pages are not
// pages to Hugo: the fixtures' templates write the same facts into every HTML file they render,
// a pager page's being its list page's (data-truth on <body>).
const hugoTruthLayout = `{{- $rows := slice -}}
{{- range hugo.Sites -}}{{- $pages := .Pages -}}{{- with .GetPage "/404" -}}{{- $pages = $pages | append . -}}{{- end -}}
{{- range $pages -}}
{{- $formats := slice -}}
{{- range .OutputFormats -}}{{- $formats = $formats | append (dict "name" .Name "rel" .RelPermalink) -}}{{- end -}}
{{- $file := "" -}}{{- with .File -}}{{- $file = .Filename -}}{{- end -}}
{{- $rows = $rows | append (dict "kind" .Kind "lang" .Lang "file" $file "formats" $formats) -}}
{{- end -}}{{- end -}}
{{- $rows | jsonify -}}`

// hugoTruth is one page of hugoTruthLayout's account.
type hugoTruth struct {
	Kind, Lang, File string
	Formats          []struct{ Name, Rel string }
}

// truthMarker reads the facts the fixtures' templates write into HTML (a data-truth attribute on
// <body>) and JSON (a "truth" value): kind|lang|file|pager page number (list pages only).
var truthMarker = regexp.MustCompile(`truth"?[=:] ?"([^"|]*)\|([^"|]*)\|([^"|]*)\|([0-9]*)"`)

// findHugo finds Hugo (testtool.Hugo) and requires v0.146 or newer, the first that writes pages as
// the fixtures expect.
func findHugo(t *testing.T) string {
	t.Helper()
	path, version := testtool.Hugo(t)
	old := false // v0.145 and older; any v1 is newer
	if m := regexp.MustCompile(`^v0\.(\d+)\.`).FindStringSubmatch(version); m != nil {
		minor, _ := strconv.Atoi(m[1])
		old = minor < 146
	}
	if old {
		testtool.Missing(t, "hugo at %s is %s; need v0.146 or newer: run .ci/run, or CGO_ENABLED=0 go install github.com/gohugoio/hugo@%s and set $HUGO", path, version, testtool.HugoVersion)
	}
	return path
}

// hugoListRow is one line of `hugo list all`.
type hugoListRow struct {
	path, permalink, kind string
	draft                 bool
}

func hugoListAll(t *testing.T, hugo, dir string, env []string) []hugoListRow {
	t.Helper()
	cmd := exec.Command(hugo, "list", "all")
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hugo list all: %v\n%s", err, stderr.String())
	}
	recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("hugo list all: reading CSV: %v", err)
	}
	var rows []hugoListRow
	for i, r := range recs {
		if i == 0 || len(r) < 10 {
			continue // header: path,slug,title,date,expiryDate,publishDate,draft,permalink,kind,section
		}
		rows = append(rows, hugoListRow{path: r[0], permalink: r[7], kind: r[8], draft: r[6] == "true"})
	}
	return rows
}

// permalinkFile is the file Hugo wrote for a permalink: its path, plus index.html for a folder.
func permalinkFile(permalink string) string {
	u, err := url.Parse(permalink)
	if err != nil {
		return ""
	}
	// A slug with ".." is resolved when Hugo writes the file, never above the output folder.
	p := strings.TrimPrefix(cleanKeepSlash(u.Path), "/")
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return p
}

func TestHugoIntegration(t *testing.T) {
	hugo := findHugo(t)
	for _, fx := range hugoFixtures {
		t.Run(fx.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "hugo", fx.name))); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "layouts", "404.html"), []byte(hugoTruthLayout), 0o644); err != nil {
				t.Fatal(err)
			}
			for name, target := range fx.links {
				if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
					t.Fatal(err)
				}
			}
			env := append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(dir, ".cache"))
			for k, v := range fx.env {
				env = append(env, k+"="+v)
			}
			cmd := exec.Command(hugo, append([]string{"--quiet"}, fx.args...)...) // publishDir as the site's config says
			cmd.Dir, cmd.Env = dir, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, out)
			}
			rows := hugoListAll(t, hugo, dir, env)

			s, err := Open(dir, Options{Now: time.Now(), Env: func(k string) string { return fx.env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.Map()
			if err != nil {
				t.Fatalf("Map: %v", err)
			}
			pages := m.Pages
			out := s.Output
			exists := func(rel string) bool { return fileExists(filepath.Join(out, filepath.FromSlash(rel))) }

			bySource := map[string]*Page{}
			for i := range pages {
				bySource[pages[i].Source] = &pages[i]
			}

			// 1. Every content file Hugo lists and rendered: our output is the file Hugo wrote.
			listed := map[string]bool{}
			for _, r := range rows {
				listed[r.path] = true
				want := permalinkFile(r.permalink)
				if r.permalink == "" || !strings.HasSuffix(want, ".html") || !exists(want) {
					continue
				}
				p := bySource[r.path]
				if p == nil {
					t.Errorf("%s: hugo rendered %s; we have no page", r.path, want)
					continue
				}
				if p.Output != want {
					t.Errorf("%s: got Output %q (NoOutput %q), want %q (hugo list all)", r.path, p.Output, p.NoOutput(), want)
				}
			}

			// 2. Our pages: an Output must exist; a NoOutput page must have nothing at its permalink.
			mapped, unmapped := 0, map[string]int{}
			for _, p := range pages {
				switch {
				case p.Output != "" && exists(p.Output):
					mapped++
				case p.Output != "" && p.NoOutput() != "":
					unmapped[p.NoOutput()]++
				case p.Output != "":
					t.Errorf("%s: Output %s was not written by hugo", p.Source, p.Output)
					unmapped["missing output"]++
				default:
					unmapped[p.NoOutput()]++
				}
				for _, a := range p.Others().Aliases {
					if !exists(a) {
						t.Errorf("%s: alias %s was not written by hugo", p.Source, a)
					}
				}
				for _, r := range p.Others().Resources {
					if !exists(r) {
						t.Errorf("%s: resource %s was not written by hugo", p.Source, r)
					}
				}
			}
			for _, r := range rows {
				p := bySource[r.path]
				if p == nil || p.NoOutput() == "" || r.permalink == "" {
					continue
				}
				if f := permalinkFile(r.permalink); exists(f) && m.Owner(f).Page == nil {
					t.Errorf("%s: we say no output (%s) but hugo wrote %s, which no page owns", r.path, p.NoOutput(), f)
				}
			}

			// Every content file Hugo rendered is under one of the site's sources (a watcher
			// watching them sees its edits).
			for _, row := range readHugoTruth(t, out) {
				if row.File == "" {
					continue
				}
				if _, ok := sourceOf(realSources(s), realPath(row.File)); !ok {
					t.Errorf("hugo rendered %s, under none of Sources() = %v", row.File, srcPaths(s.Sources()))
				}
			}

			// 3. Every file Hugo wrote for a page, with or without a content file, in any output
			// format, and every pager page has the owner Hugo says, with Hugo's kind and language.
			kinds := checkOwners(t, s, m, dir, out)
			var reasons []string
			for r, n := range unmapped {
				reasons = append(reasons, fmt.Sprintf("%s=%d", r, n))
			}
			sort.Strings(reasons)
			var ks []string
			for k, n := range kinds {
				ks = append(ks, fmt.Sprintf("%s=%d", k, n))
			}
			sort.Strings(ks)
			t.Logf("hugo %s: pages=%d mapped=%d unmapped=%d (%s); output files: %s",
				fx.name, len(pages), mapped, len(pages)-mapped, strings.Join(reasons, " "), strings.Join(ks, " "))
		})
	}
}

// checkOwners checks Owner for every file Hugo wrote against Hugo's own account of it
// (hugoTruthLayout and the data-truth markers), and counts the files by what they are.
func checkOwners(t *testing.T, s *Site, m *Map, dir, out string) map[string]int {
	t.Helper()
	truth := map[string]hugoTruth{} // output file -> its page
	format := map[string]string{}   // output file -> its format's name
	rows := readHugoTruth(t, out)
	for _, row := range rows {
		for _, f := range row.Formats {
			rel := permalinkFile(f.Rel)
			truth[rel], format[rel] = row, f.Name
		}
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	source := func(file string) string {
		if file == "" {
			return ""
		}
		r, err := filepath.Rel(realDir, file)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	kinds := map[string]int{}
	err := filepath.WalkDir(out, func(fp string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, fp)
		rel = filepath.ToSlash(rel)
		o := m.Owner(rel)
		if o.Page != nil && m.page(uint32(o.Index)) != o.Page {
			t.Errorf("%s: Owner's Index %d is not its page's", rel, o.Index)
		}
		want, role := truth[rel], RoleFormat
		if name, ok := format[rel]; ok && (name == "html" || name == "404") {
			role = RolePage
		}
		b, _ := os.ReadFile(fp)
		mm := truthMarker.FindSubmatch(b)
		_, listed := format[rel]
		switch {
		case mm == nil && !listed:
			kinds["no page (redirect, resource, static, sitemap)"]++
			return nil
		case mm != nil:
			// A page Hugo lists in no collection (build.list: never) is not in the account.
			want = hugoTruth{Kind: string(mm[1]), Lang: string(mm[2]), File: string(mm[3])}
			if n, _ := strconv.Atoi(string(mm[4])); n >= 2 {
				role = RolePager
			} else if !listed {
				role = RolePage
			}
		}
		what := fmt.Sprintf("%s %s, %s", want.Lang, want.Kind, role)
		if want.File == "" {
			what += " (no source)"
		}
		kinds[what]++
		switch {
		case o.Page == nil:
			t.Errorf("%s: Hugo wrote it for %s %s %q as its %s; Owner finds no page", rel, want.Lang, want.Kind, source(want.File), role)
		case o.Role != role || o.Page.Source != source(want.File) || o.Page.Kind() != want.Kind || o.Page.Lang() != want.Lang:
			t.Errorf("%s: Owner = %s of %q (kind %s, lang %s); Hugo: %s of %q (kind %s, lang %s)", rel,
				o.Role, o.Page.Source, o.Page.Kind(), o.Page.Lang(), role, source(want.File), want.Kind, want.Lang)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkFormats(t, m, out, rows)
	return kinds
}

// checkFormats: the files robotsmith places for each page Hugo rendered, its HTML and every other
// output format, are the ones Hugo links for that page, no more and no fewer.
func checkFormats(t *testing.T, m *Map, out string, rows []hugoTruth) {
	t.Helper()
	for _, row := range rows {
		var hugoFiles []string
		var page *Page
		for _, f := range row.Formats {
			rel := permalinkFile(f.Rel)
			hugoFiles = append(hugoFiles, rel)
			if page == nil && fileExists(filepath.Join(out, filepath.FromSlash(rel))) {
				page = m.Owner(rel).Page
			}
		}
		if page == nil {
			continue // nothing written, or an owner already reported missing
		}
		var ours []string
		if page.Output != "" {
			ours = append(ours, page.Output)
		}
		for _, f := range page.Others().Formats {
			ours = append(ours, f.File)
		}
		sort.Strings(hugoFiles)
		sort.Strings(ours)
		if strings.Join(ours, " ") != strings.Join(hugoFiles, " ") {
			t.Errorf("%s %s %q: robotsmith places %v, Hugo %v", row.Lang, row.Kind, row.File, ours, hugoFiles)
		}
	}
}

// readHugoTruth reads hugoTruthLayout's account from the 404 page it replaced.
func readHugoTruth(t *testing.T, out string) []hugoTruth {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "404.html"))
	if err != nil {
		matches, _ := filepath.Glob(filepath.Join(out, "*", "404.html"))
		if len(matches) == 0 {
			t.Fatalf("no 404.html with Hugo's account of its pages: %v", err)
		}
		b, err = os.ReadFile(matches[0])
		if err != nil {
			t.Fatal(err)
		}
	}
	var rows []hugoTruth
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatalf("reading Hugo's account of its pages: %v", err)
	}
	return rows
}
