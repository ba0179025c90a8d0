package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// The same input, the same answer (SPEC §5, §7): what robotsmith decides for a file depends on the
// site alone, never on the runs before, nor on where the site's folder is.

// decisions are explain --json's answers for every file of dir's output, by URL: its class, the
// tags it gets and the X-Robots-Tag lines _headers sends. They say nothing of where the site is.
func decisions(t *testing.T, env map[string]string, dir string) map[string]string {
	t.Helper()
	s, err := site.Open(dir, site.Options{Env: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	out := s.Output
	var files []string
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := runEnv(t, env, append([]string{"explain", "--json", dir}, files...)...)
	if r.code != 0 {
		t.Fatalf("explain: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var doc struct {
		Paths []struct {
			URL    string `json:"url"`
			Class  string `json:"class"`
			Tags   []struct{ Name, Content string }
			Header []string `json:"x_robots_tag"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range doc.Paths {
		var b strings.Builder
		b.WriteString(p.Class)
		for _, tag := range p.Tags {
			b.WriteString("; " + tag.Name + "=" + tag.Content)
		}
		for _, h := range p.Header {
			b.WriteString("; X-Robots-Tag: " + h)
		}
		got[p.URL] = b.String()
	}
	if len(got) != len(files) {
		t.Fatalf("explain answered for %d URLs of %d files", len(got), len(files))
	}
	return got
}

// sameDecisions compares two runs' decisions URL by URL.
func sameDecisions(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for u, w := range want {
		if got[u] != w {
			t.Errorf("%s: %s: got %q, want %q (the first build's)", what, u, got[u], w)
		}
	}
	for u := range got {
		if _, ok := want[u]; !ok {
			t.Errorf("%s: %s: decided, but not in the first build", what, u)
		}
	}
}

// copyDecidesAlike holds the site in dir, just built, to the rule that a decision depends on the
// site alone: a second build changes nothing, and a byte-identical copy of the site in another
// folder gets the site's decision for every file, and the site's findings from check, with nothing
// to change.
func copyDecidesAlike(t *testing.T, env map[string]string, dir string) {
	t.Helper()
	if r := runEnv(t, env, "build", "--no-command", dir); r.code != 0 || !strings.Contains(r.stdout, "changed 0 files") {
		t.Errorf("second build: exit %d, want 0 and no file changed\n%s%s", r.code, r.stdout, r.stderr)
	}
	dup := filepath.Join(t.TempDir(), "site")
	testtool.CopyTree(t, dir, dup)
	sameDecisions(t, "a copy of the site", decisions(t, env, dup), decisions(t, env, dir))
	findings := func(dir string) (int, string) {
		r := runEnv(t, env, "check", "--json", dir)
		var rep struct {
			Changed  int `json:"changed"`
			Findings []struct {
				Message string `json:"message"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Changed != 0 {
			t.Errorf("check of %s: %v, would change %d files; want none\n%s", dir, err, rep.Changed, r.stdout)
		}
		var b strings.Builder
		for _, f := range rep.Findings {
			b.WriteString(strings.ReplaceAll(f.Message, dir, "SITE") + "\n")
		}
		return r.code, b.String()
	}
	code, got := findings(dup)
	wantCode, want := findings(dir)
	if code != wantCode || got != want {
		t.Errorf("check of a copy of the site: exit %d, findings:\n%s\nwant exit %d, the site's findings:\n%s", code, got, wantCode, want)
	}
}

// TestPrintFormatModuleElsewhere is google/docsy-example's shape (testdata/determinism/printformat):
// the theme is a Hugo module outside the site's folder that defines the "print" output format, and
// the site renders its home and sections in it (/_print/, /_print/docs/). Every page is made
// noindex after Hugo built it. robotsmith found the module through the environment Hugo had; the
// home's print page /_print/ then took the home's noindex. A second run that did not find the
// module (the same site in another folder beside no theme, a shell without
// HUGO_MODULE_REPLACEMENTS, a theme only in Hugo's module cache) left "print" out silently, so
// /_print/ became a page of its own, decided by the tag the theme wrote there: it put
// `index, follow` back (changed 1 file), and check failed on its canonical link to the noindex
// home. Hugo v0.165.0 itself wrote, into public/_print/index.html,
// `<link rel="canonical" href="https://example.org/">` and `<meta name="robots" content="index, follow">`.
// Now every run that reads the site's modules decides the same, and one that cannot read them
// refuses the name at its line and writes nothing.
func TestPrintFormatModuleElsewhere(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	base := t.TempDir()
	testtool.CopyTree(t, filepath.Join("testdata", "determinism", "printformat"), base)
	site, theme := filepath.Join(base, "site"), filepath.Join(base, "theme")
	replaced := map[string]string{"HUGO_MODULE_REPLACEMENTS": "example.com/printtheme -> " + theme}
	cmd := exec.Command(hugo, "--quiet")
	cmd.Dir = site
	cmd.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(base, "hugocache"), "HUGO_MODULE_REPLACEMENTS="+replaced["HUGO_MODULE_REPLACEMENTS"])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	err := filepath.WalkDir(filepath.Join(site, "content"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, []byte(strings.Replace(string(b), "---\n", "---\nrobots: noindex\n", 1)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}

	if r := runEnv(t, replaced, "build", "--no-command", site); r.code != 0 {
		t.Fatalf("first build: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	first := decisions(t, replaced, site)
	for _, u := range []string{"/", "/_print/", "/_print/docs/", "/docs/start/"} {
		if !strings.HasPrefix(first[u], "noindex;") {
			t.Errorf("first build: %s is %q, want noindex (its page's)", u, first[u])
		}
	}
	after := snapshot(t, site)

	// copyOf is the site as the first build left it, in a folder of its own (its module is not
	// beside it); module puts the theme where Hugo's module cache would hold it and the site's
	// go.mod requiring it.
	copyOf := func(t *testing.T, module bool) (string, map[string]string) {
		dir := filepath.Join(t.TempDir(), "site")
		testtool.CopyTree(t, site, dir)
		if !module {
			return dir, nil
		}
		cache := t.TempDir()
		testtool.CopyTree(t, theme, filepath.Join(cache, "modules", "filecache", "modules", "pkg", "mod", "example.com", "printtheme@v1.0.0"))
		writeFile(t, dir, "go.mod", "module example.com/site\n\ngo 1.21\n\nrequire example.com/printtheme v1.0.0\n")
		return dir, map[string]string{"HUGO_CACHEDIR": cache}
	}
	tests := []struct {
		desc string
		run  func(t *testing.T) (dir string, env map[string]string)
		// fails: the run cannot read the module; it must then refuse, at the outputs line, and
		// leave every file as it was, never decide otherwise.
		fails bool
	}{
		{desc: "a second build of the same site", run: func(t *testing.T) (string, map[string]string) { return site, replaced }},
		{desc: "a copy, the module through HUGO_MODULE_REPLACEMENTS", run: func(t *testing.T) (string, map[string]string) {
			dir, _ := copyOf(t, false)
			return dir, replaced
		}},
		{desc: "a copy, the module in Hugo's module cache", run: func(t *testing.T) (string, map[string]string) { return copyOf(t, true) }},
		{desc: "a copy, the module nowhere", run: func(t *testing.T) (string, map[string]string) { return copyOf(t, false) }, fails: true},
		{desc: "the same site, the module nowhere", run: func(t *testing.T) (string, map[string]string) { return site, nil }, fails: true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir, env := tc.run(t)
			before := snapshot(t, dir)
			r := runEnv(t, env, "build", "--no-command", "--json", dir)
			if tc.fails {
				if r.code != 1 || !strings.Contains(r.stderr, `hugo.toml:13: outputs: home: output format "print" is defined by no configuration robotsmith could read`) ||
					!strings.Contains(r.stderr, "example.com/printtheme") {
					t.Errorf("build: exit %d, want 1 and the outputs line named with the module\n%s", r.code, r.stderr)
				}
				sameSnapshot(t, "a build that failed", before, snapshot(t, dir))
				return
			}
			var rep struct {
				Changed  int      `json:"changed"`
				Files    []string `json:"changed_files"`
				Findings []any    `json:"findings"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 {
				t.Fatalf("build: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
			}
			if rep.Changed != 0 || len(rep.Findings) != 0 {
				t.Errorf("build over the first build's output: changed %v, findings %v; want none", rep.Files, rep.Findings)
			}
			sameDecisions(t, tc.desc, decisions(t, env, dir), first)
			if c := runEnv(t, env, "check", dir); c.code != 0 {
				t.Errorf("check after build: exit %d, want 0\n%s%s", c.code, c.stdout, c.stderr)
			}
		})
	}
	sameSnapshot(t, "the first build's output after the runs", after, snapshot(t, site))
}
