package config

import (
	"regexp"
	"strings"
	"testing"
)

var decoderLine = regexp.MustCompile(`(yaml|toml|json): line \d`)

// TestPositions holds where each kind of configuration error is reported, in each format: the line
// of the key or value at fault, and for a syntax error the column too where the reader knows it
// (TOML and JSON; yaml.v3 gives lines only). Multi-line strings and lists come before the fault,
// so that a line counted by anything but the reader's own offsets shows: a TOML `"""` string
// holding `[rules]` is text, not a table header.
func TestPositions(t *testing.T) {
	type form struct{ file, src, at string } // at: "line" or "line:col"
	for _, tc := range []struct {
		desc  string
		forms []form
		msg   string // in the error, right after the position
	}{
		{"a bad value after a multi-line string", []form{
			{"robotsmith.yaml", "command: |\n  hugo\n  [rules]\nexisting: bogus\n", "4"},
			{"robotsmith.toml", "command = \"\"\"\n[rules]\n\"\"\"\nexisting = \"bogus\"\n", "4"},
			{"robotsmith.toml", "command = '''\n[[rules]]\npath = \"x\"\n'''\nexisting = \"bogus\"\n", "5"},
			{"robotsmith.json", "{\n  \"command\": \"hugo\\n[rules]\",\n  \"rules\": [\n  ],\n  \"existing\": \"bogus\"\n}\n", "5"},
		}, `existing: "bogus" is not one of merge, replace`},
		{"an unknown key after a multi-line string", []form{
			{"robotsmith.yaml", "command: >\n  hugo\n  --minify\nsitemaps: keep\n", "4"},
			{"robotsmith.toml", "command = \"\"\"\nhugo\nsitemaps = 1\n\"\"\"\nsitemaps = \"keep\"\n", "5"},
			{"robotsmith.json", "{\"command\": \"hugo\",\n\n \"sitemaps\": \"keep\"}\n", "3"},
		}, `unknown key "sitemaps"`},
		{"an unknown key of a table", []form{
			{"robotsmith.yaml", "tags: three\nheaders:\n  format: netlify\n  htlm: true\n", "4"},
			{"robotsmith.toml", "tags = \"three\"\n\n[headers]\nformat = \"netlify\"\nhtlm = true\n", "5"},
			{"robotsmith.json", "{\"tags\": \"three\",\n \"headers\": {\n  \"format\": \"netlify\",\n  \"htlm\": true}}\n", "4"},
		}, `headers: unknown key "htlm"`},
		{"a bad item of a list written over lines", []form{
			{"robotsmith.yaml", "error_pages:\n  - /404.html\n  - 404.html\n", "3"},
			{"robotsmith.yaml", "error_pages: [/404.html,\n  404.html]\n", "2"},
			{"robotsmith.toml", "error_pages = [\n  \"/404.html\",\n  \"404.html\",\n]\n", "3"},
			{"robotsmith.json", "{\"error_pages\": [\n  \"/404.html\",\n  \"404.html\"]}\n", "3"},
		}, `error_pages: "404.html" must be a URL path starting with /`},
		{"a bad glob in the second rule", []form{
			{"robotsmith.yaml", "rules:\n  - path: /a/**\n    robots: |\n      noindex\n  - path: b\n    robots: noindex\n", "5"},
			{"robotsmith.toml", "[[rules]]\npath = \"/a/**\"\nrobots = \"\"\"\nnoindex\"\"\"\n\n[[rules]]\npath = \"b\"\nrobots = \"noindex\"\n", "7"},
			{"robotsmith.json", "{\"rules\": [\n  {\"path\": \"/a/**\", \"robots\": \"noindex\"},\n  {\"path\": \"b\",\n   \"robots\": \"noindex\"}]}\n", "3"},
		}, `rules[2]: path: "b" must be a URL path starting with /`},
		{"a rule with no selector, at the rule", []form{
			{"robotsmith.yaml", "tags: three\nrules:\n  - robots: noindex\n", "3"},
			{"robotsmith.toml", "tags = \"three\"\n[[rules]]\nrobots = \"noindex\"\n", "2"},
			{"robotsmith.json", "{\"tags\": \"three\", \"rules\": [\n {\"robots\": \"noindex\"}]}\n", "2"},
		}, "rules[1]: no path, kind or lang given"},
		{"a key written twice, at the second", []form{
			{"robotsmith.yaml", "tags: three\nsitemap: keep\ntags: single\n", "3"},
			{"robotsmith.toml", "tags = \"three\"\nsitemap = \"keep\"\ntags = \"single\"\n", "3"},
			{"robotsmith.json", "{\"tags\": \"three\",\n \"sitemap\": \"keep\",\n \"tags\": \"single\"}\n", "3"},
		}, `key "tags" is written twice (first at line 1)`},
		{"a key written twice in a rule", []form{
			{"robotsmith.yaml", "rules:\n  - path: /a/**\n    robots: noindex\n    path: /b/**\n", "4"},
			{"robotsmith.toml", "[[rules]]\npath = \"/a/**\"\nrobots = \"noindex\"\npath = \"/b/**\"\n", "4"},
			{"robotsmith.json", "{\"rules\": [{\"path\": \"/a/**\",\n  \"robots\": \"noindex\",\n  \"path\": \"/b/**\"}]}\n", "3"},
		}, `key "path" is written twice (first at line`},
		{"a misspelt crawler in a robots.txt group", []form{
			{"robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/a/]\n    - agents: [bingbott]\n      disallow: [/]\n", "5"},
			{"robotsmith.toml", "[[robots_txt.groups]]\nagents = [\"*\"]\ndisallow = [\"/a/\"]\n\n[[robots_txt.groups]]\nagents = [\"bingbott\"]\ndisallow = [\"/\"]\n", "5"},
			{"robotsmith.json", "{\"robots_txt\": {\"groups\": [\n {\"agents\": [\"*\"], \"disallow\": [\"/a/\"]},\n {\"agents\": [\"bingbott\"],\n  \"disallow\": [\"/\"]}]}}\n", "3"},
		}, `robots_txt.groups[2]: agents: "bingbott" is not a crawler robotsmith knows`},
		{"a bad AI preference", []form{
			{"robotsmith.yaml", "ai:\n  block: [training]\n  train: maybe\n", "3"},
			{"robotsmith.toml", "[ai]\nblock = [\"training\"]\ntrain = \"maybe\"\n", "3"},
			{"robotsmith.json", "{\"ai\": {\"block\": [\"training\"],\n  \"train\": \"maybe\"}}\n", "2"},
		}, `ai: train: "maybe" is not yes or no`},
		{"nested too deep", []form{
			{"robotsmith.yaml", "tags: three\nx: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", "2"},
			{"robotsmith.toml", "tags = \"three\"\nx = " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", "2"},
			{"robotsmith.json", "{\"tags\": \"three\",\n \"x\": " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}\n", "2"},
		}, "nested more than 32 levels deep"},
		{"a YAML syntax error", []form{
			{"robotsmith.yaml", "rules:\n  - path: /a/**\n    robots: noindex\n  - path: /b/**\n    robots: noindex\n   sitemap: keep\n", "6"},
		}, "yaml: did not find expected '-' indicator"},
		{"a YAML syntax error far below the list it breaks", []form{
			{"robotsmith.yaml", "tags: three\nrules:\n" + strings.Repeat("  - path: /a/**\n    robots: noindex\n", 20) + "   sitemap: keep\n", "43"},
		}, "yaml: did not find expected '-' indicator"},
		{"a tab in YAML's indentation", []form{
			{"robotsmith.yaml", "rules:\n  - path: /a/**\n\trobots: noindex\n", "3"},
			{"robotsmith.yaml", "headers:\n\tformat: netlify\n", "2"},
		}, "yaml: "}, // the reader says "tab" (frontmatter's TestYAMLFaultLine)
		{"a TOML syntax error", []form{
			{"robotsmith.toml", "command = \"\"\"\nhugo\n\"\"\"\ntags = three\n", "4:8"},
		}, `toml: expected keyword "true"`},
		{"a JSON syntax error", []form{
			{"robotsmith.json", "{\n  \"command\": \"hugo\",\n  \"tags\": three\n}\n", "3:12"},
		}, "json: invalid character 'h' in literal true (expecting 'r')"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, f := range tc.forms {
				_, err := Parse(f.file, []byte(f.src))
				want := f.file + ":" + f.at + ": " + tc.msg
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s %q: got %v, want %q", f.file, f.src, err, want)
				}
				// The decoder's own "line N:" is not left in the message, nor its prefix twice.
				if err != nil && (decoderLine.MatchString(err.Error()) || strings.Count(err.Error(), " yaml:") > 1) {
					t.Errorf("%s: got %q, want one position, the file's", f.file, err)
				}
			}
		})
	}
}
