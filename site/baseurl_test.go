package site

import "testing"

func TestBaseURL(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		files map[string]string
		want  string
	}{
		{"hugo", map[string]string{"hugo.toml": "baseURL = \"https://example.org/\"\n"}, "https://example.org/"},
		{"hugo keys are case-insensitive", map[string]string{"hugo.yaml": "BaseUrl: https://example.org/docs/\n"}, "https://example.org/docs/"},
		{"hugo environment config over the root file", map[string]string{
			"hugo.toml":                       "baseURL = \"http://localhost/\"\n",
			"config/production/hugo.toml":     "baseURL = \"https://example.org/\"\n",
			"config/_default/params.toml":     "x = 1\n",
			"content/_index.md":               "---\ntitle: home\n---\n",
			"config/development/hugo.toml":    "baseURL = \"http://dev/\"\n",
			"config/production/params.toml":   "y = 2\n",
			"config/production/menus.en.toml": "",
		}, "https://example.org/"},
		{"hugo without baseURL", map[string]string{"hugo.toml": "title = \"x\"\n"}, ""},
		{"jekyll url and baseurl", map[string]string{"_config.yml": "url: https://example.com\nbaseurl: /blog\n"}, "https://example.com/blog"},
		{"jekyll url alone", map[string]string{"_config.yml": "url: https://example.com/\n"}, "https://example.com/"},
		{"jekyll baseurl without url", map[string]string{"_config.yml": "baseurl: /blog\n"}, ""},
		{"jekyll url that is not a string is none", map[string]string{"_config.yml": "url: [a, b]\n"}, ""},
		{"no generator", map[string]string{"index.html": "<p>x</p>\n"}, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			s, err := Open(writeTree(t, tc.files), Options{Env: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.BaseURL(); got != tc.want {
				t.Errorf("BaseURL() = %q, want %q", got, tc.want)
			}
		})
	}
}
