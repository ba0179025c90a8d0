package site_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/site"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestTitle: the site's title (llms.txt's H1 where the home page cannot give one) is the one the
// generator itself gives its templates, each case built by the real generator with a home page
// that prints it ({{ .Site.Title }}, {{ site.title }}). Hugo v0.165.0 printed the default
// language's own title over the configuration's, and HUGO_TITLE over both; Jekyll 4.3.1 printed
// `title`.
func TestTitle(t *testing.T) {
	tests := []struct {
		desc, gen string
		files     map[string]string
		env       []string
		want      string
	}{
		{"hugo title", "hugo", map[string]string{"hugo.toml": "title = 'My site'\n"}, nil, "My site"},
		{"hugo without a title", "hugo", map[string]string{"hugo.toml": "baseURL = 'https://example.org/'\n"}, nil, ""},
		{"hugo default language's title", "hugo", map[string]string{"hugo.toml": "title = 'Root'\ndefaultContentLanguage = 'fr'\n[languages.en]\ntitle = 'English'\nweight = 1\n[languages.fr]\ntitle = 'Français'\nweight = 2\n"}, nil, "Français"},
		{"HUGO_TITLE overrides", "hugo", map[string]string{"hugo.toml": "title = 'My site'\n"}, []string{"HUGO_TITLE=From the environment"}, "From the environment"},
		{"jekyll title", "jekyll", map[string]string{"_config.yml": "title: My blog\n"}, nil, "My blog"},
		{"jekyll without a title", "jekyll", map[string]string{"_config.yml": "url: https://example.com\n"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for k, v := range tc.files {
				files[k] = v
			}
			var cmd *exec.Cmd
			var home string
			switch tc.gen {
			case "hugo":
				hugo, _ := testtool.Hugo(t)
				files["layouts/home.html"] = "[{{ .Site.Title }}]"
				cmd = exec.Command(hugo, "--quiet", "--disableKinds", "taxonomy,term,rss,sitemap,section,page,404,robotstxt")
				home = "public/index.html" // the default language's, at the root
			case "jekyll":
				files["index.html"] = "---\n---\n[{{ site.title }}]"
				cmd = exec.Command(testtool.Jekyll(t), "build", "--quiet")
				cmd.Env = append(cmd.Env, "JEKYLL_NO_BUNDLER_REQUIRE=true")
				home = "_site/index.html"
			}
			testtool.WriteFiles(t, dir, files)
			cmd.Dir, cmd.Env = dir, append(append(os.Environ(), cmd.Env...), tc.env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tc.gen, err, out)
			}
			b, err := os.ReadFile(filepath.Join(dir, home))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(string(b)); got != "["+tc.want+"]" {
				t.Fatalf("%s printed %s, not [%s]: the case is wrong", tc.gen, got, tc.want)
			}
			env := map[string]string{}
			for _, kv := range tc.env {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
			s, err := site.Open(dir, site.Options{Env: func(k string) string { return env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			if s.Title != tc.want {
				t.Errorf("Title: got %q, want %q", s.Title, tc.want)
			}
		})
	}
}
