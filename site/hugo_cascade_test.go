package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugoCascadeErrors: a cascade target that robotsmith cannot read whole stops it with an error
// at the cascade's line, never leaving the pages it would reach undecided: a glob Hugo cannot
// compile either (Hugo v0.165 stops too: "failed to compile cascade target 0: unexpected end of
// input"), and a language selector that Hugo reads and robotsmith does not (a negation, a range;
// Hugo builds the site).
func TestHugoCascadeErrors(t *testing.T) {
	const head = "baseURL = \"https://example.org/\"\ndefaultContentLanguage = \"en\"\n[languages.en]\n  weight = 1\n[languages.fr]\n  weight = 2\n"
	for _, tc := range []struct {
		desc     string
		files    map[string]string
		want     string // the error
		hugoFail bool   // Hugo refuses the site too
	}{
		{desc: "a path glob in the configuration", hugoFail: true,
			files: map[string]string{"hugo.toml": head + "[[cascade]]\n  robots = \"noindex\"\n  [cascade.target]\n    path = \"/blog/[a\"\n"},
			want:  "hugo.toml:7: cascade: target: path: unexpected end of input"},
		{desc: "a kind glob in front matter", hugoFail: true,
			files: map[string]string{"hugo.toml": head, "content/blog/_index.md": "---\ntitle: Blog\ncascade:\n  - robots: noindex\n    target: {kind: \"[page\"}\n---\n"},
			want:  "content/blog/_index.md:4: cascade: target: kind:"},
		{desc: "a negation of languages",
			files: map[string]string{"hugo.toml": head + "[[cascade]]\n  robots = \"noindex\"\n  [cascade.target.sites.matrix]\n    languages = [\"! fr\"]\n"},
			want:  `hugo.toml:7: cascade: target: sites.matrix.languages: robotsmith does not read "!" (a negation or a range): name the languages`},
		{desc: "a range of languages",
			files: map[string]string{"hugo.toml": head, "content/_index.md": "---\ntitle: Home\ncascade:\n  robots: noindex\n  target:\n    sites:\n      matrix:\n        languages: [\">= fr\"]\n---\n"},
			want:  `content/_index.md:3: cascade: target: sites.matrix.languages: robotsmith does not read ">="`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			tc.files["content/blog/a.md"] = "---\ntitle: A\n---\n"
			for name, body := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Open(dir, Options{})
			if err == nil {
				_, err = s.Pages()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
			// Hugo v0.165 does not always see a front matter cascade's bad glob: on a loaded machine
			// one run in 40 here built the site (exit 0) where the others stopped on it (exit 2), a
			// race in Hugo itself. Hugo refusing the site is a run that fails, of three; building it
			// is three that pass.
			var (
				out    []byte
				failed int
			)
			for range 3 {
				var err error
				out, err = exec.Command(findHugo(t), "--quiet", "-s", dir).CombinedOutput()
				if err != nil {
					failed++
				}
				if tc.hugoFail && failed > 0 {
					break
				}
			}
			if (failed > 0) != tc.hugoFail {
				t.Errorf("hugo failed %d of 3 runs, want it to fail: %v\n%s", failed, tc.hugoFail, out)
			}
		})
	}
}
