package site

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
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
