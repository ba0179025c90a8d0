package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/testtool"
	"github.com/robotsmith/robotsmith/pipeline"
)

// genBinary builds the sample site's stand-in generator once per test run, so that test sites in
// temporary folders (outside the module) can run it as their configured command.
func genBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gen")
	out, err := exec.Command("go", "build", "-o", bin, "./sample-site/gen").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./sample-site/gen: %v\n%s", err, out)
	}
	return bin
}

// copySite copies the sample site (without its output) to a temporary folder and points its
// command at the prebuilt generator.
func copySite(t *testing.T, gen string) string {
	t.Helper()
	dst := t.TempDir()
	testtool.CopyTree(t, "sample-site", dst, "public", "gen", "standin")
	cfgPath := filepath.Join(dst, "robotsmith.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = bytes.Replace(cfg, []byte("command: go run ./gen"), []byte("command: "+gen), 1)
	if !bytes.Contains(cfg, []byte(gen)) {
		t.Fatal("sample-site/robotsmith.yaml has no `command: go run ./gen` line to replace")
	}
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// snapshot hashes every file under dir, with its mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		rel, _ := filepath.Rel(dir, p)
		m[rel] = fi.Mode().String() + " " + fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameSnapshot(t *testing.T, what string, a, b map[string]string) {
	t.Helper()
	for k, v := range a {
		if b[k] != v {
			t.Errorf("%s: %s changed", what, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			t.Errorf("%s: %s appeared", what, k)
		}
	}
}

type runResult struct {
	code           int
	stdout, stderr string
}

func runCmd(args ...string) runResult {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, func(string) string { return "" }, &stdout, &stderr)
	code := exitCode(err)
	return runResult{code, stdout.String(), stderr.String()}
}

// TestRunArgs is the table of command lines and their exit status (SPEC §1; STYLE 24).
func TestRunArgs(t *testing.T) {
	tests := []struct {
		desc   string
		args   []string
		code   int
		stdout string // must contain
		stderr string // must contain
	}{
		{"no command", nil, 2, "", "no command given"},
		{"unknown command", []string{"deploy"}, 2, "", `unknown command "deploy"`},
		{"unknown flag", []string{"build", "--frobnicate"}, 2, "", "flag provided but not defined"},
		{"two sites", []string{"check", "a", "b"}, 2, "", "one SITE at most"},
		{"explain without path", []string{"explain"}, 2, "", "no PATH given"},
		{"version", []string{"version"}, 0, "robotsmith ", ""},
		{"flag after SITE", []string{"check", "does-not-exist", "--frobnicate"}, 2, "", "flag provided but not defined"},
		{"help", []string{"help"}, 0, "usage:", ""},
		{"missing site", []string{"check", "does-not-exist"}, 1, "", "does-not-exist"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := runCmd(tc.args...)
			if r.code != tc.code {
				t.Errorf("exit: got %d, want %d (stderr %q)", r.code, tc.code, r.stderr)
			}
			if !strings.Contains(r.stdout, tc.stdout) {
				t.Errorf("stdout: got %q, want it to contain %q", r.stdout, tc.stdout)
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr: got %q, want it to contain %q", r.stderr, tc.stderr)
			}
		})
	}
}

// TestSampleSiteEndToEnd is issue 4's "done when", on a copy of the sample site: the generator runs
// as the configured command, build exits 0 and writes every form, check exits 1 before build and 0
// after, a second build writes nothing, and broken inputs exit 1 naming file:line with no file
// written.
func TestSampleSiteEndToEnd(t *testing.T) {
	gen := genBinary(t)
	dir := copySite(t, gen)
	out := filepath.Join(dir, "public")

	// Generator output, not yet processed: check runs no command and reports what build would change.
	if b, err := exec.Command(gen, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
	before := snapshot(t, out)
	if r := runCmd("check", dir); r.code != 1 || !strings.Contains(r.stdout, "would change") {
		t.Fatalf("check before build: exit %d, stdout %q, stderr %q; want 1 and \"would change\"", r.code, r.stdout, r.stderr)
	}
	sameSnapshot(t, "check wrote", before, snapshot(t, out))

	r := runCmd("build", "--json", dir)
	if r.code != 0 {
		t.Fatalf("build: exit %d\nstderr: %s", r.code, r.stderr)
	}
	var rep pipeline.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("build --json: %v\n%s", err, r.stdout)
	}
	if rep.Public == 0 || rep.NoIndex == 0 || rep.ErrorPages == 0 || rep.Redirects == 0 || rep.Changed == 0 {
		t.Errorf("build report lacks a form: %+v", rep)
	}

	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const (
		robotsPublic = `<meta name="robots" content="index, follow">`
		googlebot    = `<meta name="googlebot" content="index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1">`
		bingbot      = `<meta name="bingbot" content="index, follow, max-snippet:-1, max-image-preview:large, max-video-preview:-1">`
	)
	forms := []struct {
		desc, file string
		want, not  []string
	}{
		{"public page: three tags", "blog/index.html", []string{"<!-- robotsmith -->", robotsPublic, googlebot, bingbot, "<!-- /robotsmith -->"}, nil},
		{"taxonomy: noindex only", "tags/index.html", []string{`<meta name="robots" content="noindex, follow">`}, []string{`name="googlebot"`, `name="bingbot"`}},
		{"error page: none", "404.html", nil, []string{"<!-- robotsmith -->", `name="robots"`, `name="googlebot"`}},
		{"alias stub: none", "old-path/index.html", []string{`http-equiv="refresh"`}, []string{"<!-- robotsmith -->", `name="robots"`}},
		{"verification file untouched", "google1234567890abcdef.html", []string{"google-site-verification"}, []string{"robotsmith"}},
		{"_headers for the PDFs", "_headers", []string{"# robotsmith: begin", "/files/terms.pdf\n  X-Robots-Tag: noindex, nofollow"}, nil},
	}
	for _, f := range forms {
		got := read(f.file)
		for _, w := range f.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %s lacks %q", f.desc, f.file, w)
			}
		}
		for _, n := range f.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %s has %q", f.desc, f.file, n)
			}
		}
	}

	built := snapshot(t, out)
	if r := runCmd("check", dir); r.code != 0 {
		t.Errorf("check after build: exit %d, want 0\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = runCmd("build", "--no-command", "--json", dir)
	if r.code != 0 {
		t.Fatalf("second build: exit %d\n%s", r.code, r.stderr)
	}
	rep = pipeline.Report{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 0 || rep.Wrote {
		t.Errorf("second build changed %d files (%q), want 0", rep.Changed, rep.ChangedFiles)
	}
	sameSnapshot(t, "second build", built, snapshot(t, out))

	// A broken front matter fails the build before anything is written, naming file and line.
	page := filepath.Join(dir, "content", "about.md")
	orig, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(gen, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, b)
	}
	fresh := snapshot(t, out)
	if err := os.WriteFile(page, []byte("---\ntitle: About\nrobots: [noindex\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCmd("build", "--no-command", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "content/about.md:") {
		t.Errorf("broken front matter: exit %d, stderr %q; want 1 naming content/about.md:LINE", r.code, r.stderr)
	}
	sameSnapshot(t, "failed build (front matter)", fresh, snapshot(t, out))
	if err := os.WriteFile(page, orig, 0o644); err != nil {
		t.Fatal(err)
	}

	// A broken config likewise.
	cfgPath := filepath.Join(dir, "robotsmith.yaml")
	cfg, _ := os.ReadFile(cfgPath)
	if err := os.WriteFile(cfgPath, append(cfg, []byte("\nsitemaps: prune\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCmd("build", "--no-command", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "robotsmith.yaml:") || !strings.Contains(r.stderr, `unknown key "sitemaps"`) {
		t.Errorf("broken config: exit %d, stderr %q; want 1 naming robotsmith.yaml:LINE", r.code, r.stderr)
	}
	sameSnapshot(t, "failed build (config)", fresh, snapshot(t, out))
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}

	// A malformed value in a rule is an error at its line too.
	bad := bytes.Replace(cfg, []byte("googlebot: max-snippet:160"), []byte("googlebot: max-snippet:lots"), 1)
	if bytes.Equal(bad, cfg) {
		t.Fatal("sample config has no `googlebot: max-snippet:160` rule to break")
	}
	os.WriteFile(cfgPath, bad, 0o644)
	r = runCmd("build", "--no-command", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "robotsmith.yaml:") || !strings.Contains(r.stderr, "max-snippet") {
		t.Errorf("malformed rule value: exit %d, stderr %q", r.code, r.stderr)
	}
	sameSnapshot(t, "failed build (rule value)", fresh, snapshot(t, out))
	os.WriteFile(cfgPath, cfg, 0o644)

	// explain names the source of every value, and an unknown path exits 1.
	r = runCmd("explain", dir, "/tags/", "/files/terms.pdf")
	if r.code != 0 || !strings.Contains(r.stdout, "noindex") || !strings.Contains(r.stdout, "rule 1 at") {
		t.Errorf("explain: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = runCmd("explain", dir, "/old-path/")
	if r.code != 0 || !strings.Contains(r.stdout, "alias of: content/about.md") || !strings.Contains(r.stdout, "class: redirect") {
		t.Errorf("explain alias stub: exit %d\nstdout %s", r.code, r.stdout)
	}
	if r := runCmd("explain", dir, "/no/such/page/"); r.code != 1 {
		t.Errorf("explain unknown path: exit %d, want 1", r.code)
	}
}
