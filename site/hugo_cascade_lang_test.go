package site

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHugoCascadeLanguages: a front matter cascade whose target selects languages with Hugo's newer
// `sites: {matrix: {languages: [...]}}` (which replaced `lang`) applies only to pages of those
// languages. Real Hugo builds the site, which shows it accepts the form.
func TestHugoCascadeLanguages(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"hugo.toml": `baseURL = "https://example.org/"
defaultContentLanguage = "en"
[languages.en]
  weight = 1
[languages.fr]
  weight = 2
`,
		// Each entry also sets a param the layout prints, so Hugo itself shows where it applied.
		"content/docs/_index.md": "---\ntitle: Docs\ncascade:\n  - target:\n      sites:\n        matrix:\n          languages: [fr]\n    robots: noindex\n    params: {probe: fr-only}\n  - nofollow: true\n    params: {probe2: untargeted}\n---\n",
		"content/docs/a.md":      "---\ntitle: A\n---\n",
		"content/docs/a.fr.md":   "---\ntitle: A fr\n---\n",
		"layouts/single.html":    "<html><head></head><body>probe={{ .Params.probe }} probe2={{ .Params.probe2 }}</body></html>",
		"layouts/list.html":      "<html><head></head><body>{{ .Title }}</body></html>",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pages, err := s.Pages()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range pages {
		var vals []string
		for _, in := range p.Inputs {
			vals = append(vals, in.Agent+"="+in.Value)
		}
		got[p.Source] = strings.Join(vals, ";")
	}
	// An untargeted cascade stays in its branch page's language (en); a targeted one reaches fr.
	want := map[string]string{
		"content/docs/a.md":    "robots=nofollow",
		"content/docs/a.fr.md": "robots=noindex",
	}
	for src, w := range want {
		if got[src] != w {
			t.Errorf("%s inputs: got %q, want %q", src, got[src], w)
		}
	}
	hugo := findHugo(t)
	if out, err := exec.Command(hugo, "--quiet", "-s", dir).CombinedOutput(); err != nil {
		t.Fatalf("hugo does not accept the fixture: %v\n%s", err, out)
	}
	for file, w := range map[string]string{
		"public/docs/a/index.html":    "probe= probe2=untargeted",
		"public/fr/docs/a/index.html": "probe=fr-only probe2=",
	} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil || !strings.Contains(string(b), w) {
			t.Errorf("hugo wrote %s: %q (%v), want %q: Hugo applies the cascades differently", file, b, err, w)
		}
	}
}
