package site

import "testing"

// TestBaseURL: the base URL pages' links and sitemaps are written under, from each generator's own
// configuration (Hugo baseURL, HUGO_BASEURL; Jekyll url + baseurl, as its absolute_url filter joins
// them).
func TestBaseURL(t *testing.T) {
	tests := []struct {
		desc  string
		files map[string]string
		env   map[string]string
		want  string
	}{
		{"hugo baseURL", map[string]string{"hugo.toml": "baseURL = 'https://example.org/'\n"}, nil, "https://example.org/"},
		{"hugo baseURL with a path", map[string]string{"hugo.yaml": "baseurl: https://example.org/docs/\n"}, nil, "https://example.org/docs/"},
		{"hugo config folder", map[string]string{"config/_default/hugo.toml": "baseURL = 'https://a.example/'\n"}, nil, "https://a.example/"},
		{"HUGO_BASEURL overrides", map[string]string{"hugo.toml": "baseURL = 'https://example.org/'\n"}, map[string]string{"HUGO_BASEURL": "https://preview.example/"}, "https://preview.example/"},
		{"hugo without baseURL", map[string]string{"hugo.toml": "title = 'x'\n"}, nil, ""},
		{"jekyll url", map[string]string{"_config.yml": "url: https://example.com\n"}, nil, "https://example.com/"},
		{"jekyll url and baseurl", map[string]string{"_config.yml": "url: https://user.github.io/\nbaseurl: /project\n"}, nil, "https://user.github.io/project"},
		{"jekyll baseurl alone", map[string]string{"_config.yml": "baseurl: /blog/\n"}, nil, "/blog"},
		{"jekyll url that is not a string", map[string]string{"_config.yml": "url: [a, b]\n"}, nil, ""},
		{"jekyll without url", map[string]string{"_config.yml": "title: x\n"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			s, err := Open(writeTree(t, tc.files), Options{Env: func(k string) string { return tc.env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			if s.BaseURL != tc.want {
				t.Errorf("BaseURL: got %q, want %q", s.BaseURL, tc.want)
			}
		})
	}
}
