//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkedSite: what the commands print for a SITE, or an output folder, that is a symbolic link
// (SPEC §1): the summary begins by naming the link and the folder it names, and every command works
// on that folder. Before, build and check --strict printed "0 pages" and exited 0 over either, and
// explain alone followed the link.
func TestLinkedSite(t *testing.T) {
	for _, tc := range []struct {
		desc string
		// layout makes the site in parent; it returns SITE and the link the summary names, with
		// the folder it names.
		layout func(t *testing.T, parent string) (site, link, target string)
	}{
		{"a SITE that is a link (no generator: it is the output)", func(t *testing.T, parent string) (string, string, string) {
			real := plainSite(t)
			link := filepath.Join(parent, "site-link")
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			return link, link, real
		}},
		{"an output folder that is a link", func(t *testing.T, parent string) (string, string, string) {
			site, out := filepath.Join(parent, "site"), filepath.Join(parent, "elsewhere")
			writeFile(t, site, "hugo.toml", "baseURL = \"https://example.org/\"\ndisableKinds = [\"taxonomy\", \"term\"]\n")
			writeFile(t, site, "content/_index.md", "---\ntitle: Home\n---\n")
			writeFile(t, out, "index.html", "<!DOCTYPE html>\n<html><head>\n<title>Home</title>\n</head><body>home</body></html>\n")
			if err := os.Symlink("../elsewhere", filepath.Join(site, "public")); err != nil {
				t.Fatal(err)
			}
			return site, filepath.Join(site, "public"), out
		}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			site, link, target := tc.layout(t, t.TempDir())
			first := link + " → " + target + " (a symbolic link, followed)\n"
			for _, step := range []struct {
				args   []string
				code   int
				stdout []string // what it must print, the first at the start
			}{
				{[]string{"build", site}, 0, []string{first, "1 page: 1 public", "changed 1 file\n"}},
				{[]string{"check", "--strict", site}, 0, []string{first, "1 page: 1 public", "would change 0 files\n"}},
				{[]string{"explain", site, "/"}, 0, []string{"/  (" + link + "/index.html)\n", "class: public"}},
			} {
				r := runCmd(t, step.args...)
				if r.code != step.code || r.stderr != "" {
					t.Errorf("%q: exit %d, stderr %q; want %d and nothing on stderr", step.args, r.code, r.stderr, step.code)
				}
				if !strings.HasPrefix(r.stdout, step.stdout[0]) {
					t.Errorf("%q: stdout does not begin with %q:\n%s", step.args, step.stdout[0], r.stdout)
				}
				for _, want := range step.stdout[1:] {
					if !strings.Contains(r.stdout, want) {
						t.Errorf("%q: stdout lacks %q:\n%s", step.args, want, r.stdout)
					}
				}
			}
			r := runCmd(t, "check", "--json", site)
			var doc struct {
				Symlinks []struct{ Path, Target string }
				Pages    int
			}
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Symlinks) != 1 || doc.Symlinks[0].Path != link || doc.Symlinks[0].Target != target || doc.Pages != 1 {
				t.Errorf("check --json: symlinks %+v, %d pages; want [{%s %s}] and 1", doc.Symlinks, doc.Pages, link, target)
			}
		})
	}
}
