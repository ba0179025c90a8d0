package site

import (
	"bytes"
	"encoding/csv"
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

	"github.com/robotsmith/robotsmith/internal/testtool"
)

// hugoFixtures are the sites under testdata/hugo that the integration test builds with the real
// Hugo, with the environment each is built in.
var hugoFixtures = []struct {
	name string
	env  map[string]string
	args []string // hugo's flags (-D): robotsmith is not told them, the output folder is the truth
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
}

// findHugo finds Hugo v0.146 or newer: $HUGO, the cache where .ci/run installs it, or PATH.
func findHugo(t *testing.T) string {
	t.Helper()
	var cands []string
	if h := os.Getenv("HUGO"); h != "" {
		cands = append(cands, h)
	}
	if home, err := os.UserHomeDir(); err == nil {
		cands = append(cands, filepath.Join(home, ".cache", "robotsmith", "tools", "bin", "hugo"))
	}
	if p, err := exec.LookPath("hugo"); err == nil {
		cands = append(cands, p)
	}
	const how = "run .ci/run, or CGO_ENABLED=0 go install github.com/gohugoio/hugo@v0.165.0 and set $HUGO"
	for _, c := range cands {
		out, err := exec.Command(c, "version").Output()
		if err != nil {
			continue
		}
		m := regexp.MustCompile(`v0\.(\d+)\.`).FindSubmatch(out)
		if m == nil {
			continue
		}
		if minor, _ := strconv.Atoi(string(m[1])); minor < 146 {
			testtool.Missing(t, "hugo at %s is %s; need v0.146 or newer: %s", c, bytes.TrimSpace(out), how)
		}
		return c
	}
	testtool.Missing(t, "hugo not found: %s", how)
	return ""
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
	p := strings.TrimPrefix(u.Path, "/")
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
			claimed := map[string]string{} // output file -> what claims it
			urls := map[string]bool{}
			for i := range pages {
				p := &pages[i]
				bySource[p.Source] = p
				if p.Output != "" {
					claimed[p.Output] = "page " + p.Source
					urls[p.URL] = true
				}
				for _, a := range p.Aliases {
					claimed[a] = "alias of " + p.Source
				}
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
					t.Errorf("%s: got Output %q (NoOutput %q), want %q (hugo list all)", r.path, p.Output, p.NoOutput, want)
				}
			}

			// 2. Our pages: an Output must exist; a NoOutput page must have nothing at its permalink.
			mapped, unmapped := 0, map[string]int{}
			for _, p := range pages {
				switch {
				case p.Output != "" && exists(p.Output):
					mapped++
				case p.Output != "" && p.NoOutput != "":
					unmapped[p.NoOutput]++
				case p.Output != "":
					t.Errorf("%s: Output %s was not written by hugo", p.Source, p.Output)
					unmapped["missing output"]++
				default:
					unmapped[p.NoOutput]++
				}
				for _, a := range p.Aliases {
					if !exists(a) {
						t.Errorf("%s: alias %s was not written by hugo", p.Source, a)
					}
				}
				for _, r := range p.Resources {
					if !exists(r) {
						t.Errorf("%s: resource %s was not written by hugo", p.Source, r)
					}
				}
			}
			for _, r := range rows {
				p := bySource[r.path]
				if p == nil || p.NoOutput == "" || r.permalink == "" {
					continue
				}
				if f := permalinkFile(r.permalink); exists(f) && m.Owner(f).Page == nil {
					t.Errorf("%s: we say no output (%s) but hugo wrote %s, which no page owns", r.path, p.NoOutput, f)
				}
			}

			// 3. Every HTML file Hugo wrote is ours, an alias, a pager, or a known page with no source.
			kinds := map[string]int{}
			err = filepath.WalkDir(out, func(fp string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(fp, ".html") {
					return err
				}
				rel, _ := filepath.Rel(out, fp)
				rel = filepath.ToSlash(rel)
				if c := claimed[rel]; c != "" {
					kinds[strings.Fields(c)[0]]++
					return nil
				}
				u := "/" + strings.TrimSuffix(rel, "index.html")
				if o := m.Owner(rel); o.Role == RolePager {
					kinds["pager"]++
					return nil
				}
				// A pager page of a list page with no content file (a home or section Hugo made)
				// has no source either.
				if mm := pagerRE.FindStringSubmatch(rel); mm != nil && noSourceKind(s, "/"+mm[1]) != "" {
					kinds["pager (no source)"]++
					return nil
				}
				if k := noSourceKind(s, u); k != "" {
					kinds[k]++
					return nil
				}
				src, _ := os.ReadFile(fp)
				if bytes.Contains(src, []byte(`http-equiv="refresh"`)) {
					kinds["redirect"]++
					return nil
				}
				t.Errorf("%s: hugo wrote it; no page, alias, pager or known list claims it", rel)
				kinds["unclaimed"]++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
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
			t.Logf("hugo %s: pages=%d mapped=%d unmapped=%d (%s); html files: %s",
				fx.name, len(pages), mapped, len(pages)-mapped, strings.Join(reasons, " "), strings.Join(ks, " "))
		})
	}
}

// pagerRE takes a pager page's list folder out of its path: "blog/page/2/index.html" is "blog/".
var pagerRE = regexp.MustCompile(`^((?:[^/]+/)*?)[^/]+/[1-9][0-9]*(?:/index)?\.html$`)

// noSourceKind names the kind of an output page Hugo writes with no content file: home,
// sections without _index, taxonomy lists and terms, 404 pages. "" when u is none of those.
func noSourceKind(s *Site, u string) string {
	h := s.hugo
	u = strings.TrimSuffix(u, "index.html")
	if u != "/404.html" {
		u = strings.TrimSuffix(u, ".html")
	}
	segs := strings.Split(strings.Trim(u, "/"), "/")
	if len(segs) > 0 && h.hasLang(segs[0]) && (h.multilingual() || h.defaultInSubdir) {
		segs = segs[1:]
	}
	if len(segs) == 0 || segs[0] == "" {
		return "home"
	}
	if len(segs) == 1 && (segs[0] == "404.html") {
		return "404"
	}
	if _, ok := h.taxonomies[segs[0]]; ok && len(segs) <= 2 {
		return "taxonomy"
	}
	if len(segs) == 1 {
		return "section"
	}
	return ""
}
