package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestBuildCheckAgree runs build and then check on the same site and compares their summaries line
// by line: the counts are of the output folder as build leaves it, so a check right after a build
// counts what the build counted. Only the line of changes differs (changed N files, would change
// 0 files). Before, a robots.txt that build made for robotsmith's block was an "other file" to the
// check after it and not to the build ("6 other files", then "7"), and the check found a rule of
// _headers for it that the build had not written.
func TestBuildCheckAgree(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	env := newDocEnv(t)
	// fixture copies a doc fixture (testdata/docs/NAME.txtar, built by its generator) to a folder
	// of the test's own, and removes the files rm names from it.
	fixture := func(name string, rm ...string) func(t *testing.T) string {
		return func(t *testing.T) string {
			dir := t.TempDir()
			testtool.CopyTree(t, env.fixture(t, name), dir)
			for _, r := range rm {
				os.Remove(filepath.Join(dir, filepath.FromSlash(r)))
			}
			return dir
		}
	}
	tests := []struct {
		desc string
		site func(t *testing.T) string
	}{
		{"the sample site", func(t *testing.T) string {
			dir := testtool.SampleSite(t, gen)
			generate(t, gen, dir)
			return dir
		}},
		{"the sample site with no robots.txt or _headers of the generator's", func(t *testing.T) string {
			dir := testtool.SampleSite(t, gen)
			generate(t, gen, dir)
			os.Remove(filepath.Join(dir, "public", "robots.txt"))
			os.Remove(filepath.Join(dir, "public", "_headers"))
			return dir
		}},
		{"a robots.txt that build makes, given a rule of _headers", func(t *testing.T) string {
			dir := plainSite(t)
			writeFile(t, dir, "files/a.pdf", "%PDF-1.4\n")
			writeFile(t, dir, "robotsmith.yaml", "rules:\n  - path: [/*.txt, /**/*.pdf]\n    robots: noindex\nai:\n  block: [training]\n")
			return dir
		}},
		{"the Hugo guide's site", fixture("hugo")},
		{"the Hugo guide's site in two languages", fixture("hugo-languages")},
		{"the Jekyll guide's site", fixture("jekyll")},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := tc.site(t)
			build := runCmd(t, "build", "--no-command", dir)
			if build.code != 0 {
				t.Fatalf("build: exit %d, stderr %q", build.code, build.stderr)
			}
			check := runCmd(t, "check", dir)
			if check.code != 0 {
				t.Errorf("check after build: exit %d, stdout %q, stderr %q; want 0", check.code, check.stdout, check.stderr)
			}
			got, want := counts(check.stdout), counts(build.stdout)
			if len(got) != len(want) {
				t.Fatalf("check after build:\n%s\nwant the lines of build's summary:\n%s", check.stdout, build.stdout)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("check after build: %q, want build's %q", got[i], want[i])
				}
			}
		})
	}
}

// counts are a summary's lines but the one of changes and the elapsed time.
func counts(summary string) []string {
	var out []string
	for l := range strings.Lines(summary) {
		if strings.HasPrefix(l, "changed ") || strings.HasPrefix(l, "would change ") || strings.HasPrefix(l, "done in ") {
			continue
		}
		out = append(out, l)
	}
	return out
}
