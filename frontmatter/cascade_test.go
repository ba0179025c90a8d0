package frontmatter

import (
	"errors"
	"reflect"
	"testing"
)

// cascadeWant is what a Cascade should hold, its values as plain Go values.
type cascadeWant struct {
	Target Target
	Values map[string]any
	Line   int
}

var cascadeCases = []struct {
	desc string
	src  string
	want []cascadeWant
	err  string
	warn string // the document's warnings, joined
}{
	{
		desc: "yaml map without target",
		src:  "---\ntitle: Blog\ncascade:\n  robots: noindex\n---\n",
		want: []cascadeWant{{Values: map[string]any{"robots": "noindex"}, Line: 3}},
	},
	{
		desc: "yaml map with _target",
		src:  "---\ncascade:\n  _target:\n    path: /blog/**\n    kind: page\n  noindex: true\n---\n",
		want: []cascadeWant{{Target: Target{Path: "/blog/**", Kind: "page"}, Values: map[string]any{"noindex": true}, Line: 2}},
	},
	{
		desc: "yaml list with target and _target",
		src: "---\nCascade:\n" +
			"  - target:\n      path: '{/a,/a/**}'\n      lang: en\n      environment: production\n    robots: noindex\n" +
			"  - _target: {kind: section}\n    nofollow: true\n" +
			"  - robots: noarchive\n---\n",
		want: []cascadeWant{
			{Target: Target{Path: "{/a,/a/**}", Lang: "en", Environment: "production"}, Values: map[string]any{"robots": "noindex"}, Line: 3},
			{Target: Target{Kind: "section"}, Values: map[string]any{"nofollow": true}, Line: 8},
			{Values: map[string]any{"robots": "noarchive"}, Line: 10},
		},
	},
	{
		desc: "target wins over _target",
		src:  "---\ncascade:\n  _target: {path: /old/**}\n  target: {path: /new/**}\n  robots: noindex\n---\n",
		want: []cascadeWant{{Target: Target{Path: "/new/**"}, Values: map[string]any{"robots": "noindex"}, Line: 2}},
		warn: "p.md:3: front matter: cascade entry has both target and _target: robotsmith uses target (Hugo picks either, at random); remove one",
	},
	{
		desc: "target wins over _target written after it",
		src:  "+++\n[cascade]\nnoindex = true\n[cascade.target]\npath = '/new/**'\n[cascade._target]\npath = '/old/**'\n+++\n",
		want: []cascadeWant{{Target: Target{Path: "/new/**"}, Values: map[string]any{"noindex": true}, Line: 2}},
		warn: "p.md:6: front matter: cascade entry has both target and _target: robotsmith uses target (Hugo picks either, at random); remove one",
	},
	{
		desc: "toml table",
		src:  "+++\ntitle = 'x'\n[cascade]\nnoindex = true\n[cascade._target]\npath = '/docs/**'\n+++\n",
		want: []cascadeWant{{Target: Target{Path: "/docs/**"}, Values: map[string]any{"noindex": true}, Line: 3}},
	},
	{
		desc: "toml array of tables",
		src: "+++\n[[cascade]]\nrobots = 'noindex'\n[cascade.target]\nkind = 'page'\n" +
			"[[cascade]]\n# second\nnofollow = true\n+++\n",
		want: []cascadeWant{
			{Target: Target{Kind: "page"}, Values: map[string]any{"robots": "noindex"}, Line: 2},
			{Values: map[string]any{"nofollow": true}, Line: 6},
		},
	},
	{
		desc: "toml array of tables with a nested array and spaces in headers",
		src: "+++\n[[ cascade ]]\nrobots = 'noindex'\n[[cascade.extra]]\nx = 1\n" +
			"[[ \"cascade\" ]] # two\nnofollow = true\n+++\n",
		want: []cascadeWant{
			{Values: map[string]any{"robots": "noindex", "extra": []any{map[string]any{"x": int64(1)}}}, Line: 2},
			{Values: map[string]any{"nofollow": true}, Line: 6},
		},
	},
	{
		desc: "toml array of inline tables",
		src:  "+++\ntitle = 'x'\ncascade = [\n  {robots = 'noindex'},\n  {nofollow = true, _target = {path = '/a/**'}},\n]\n+++\n",
		want: []cascadeWant{
			{Values: map[string]any{"robots": "noindex"}, Line: 4},
			{Target: Target{Path: "/a/**"}, Values: map[string]any{"nofollow": true}, Line: 5},
		},
	},
	{
		desc: "json list",
		src:  "{\"title\": \"x\",\n\"cascade\": [\n  {\"robots\": \"noindex\"},\n  {\"_target\": {\"path\": \"/x/**\"},\n   \"nofollow\": true}\n]}\n",
		want: []cascadeWant{
			{Values: map[string]any{"robots": "noindex"}, Line: 3},
			{Target: Target{Path: "/x/**"}, Values: map[string]any{"nofollow": true}, Line: 4},
		},
	},
	{
		desc: "json map",
		src:  "{\"title\": \"x\",\n\"cascade\": {\"robots\": \"noindex\"}}\n",
		want: []cascadeWant{{Values: map[string]any{"robots": "noindex"}, Line: 2}},
	},
	{
		desc: "hugo 0.150+ target sites.matrix.languages",
		src: "---\ncascade:\n  - target:\n      path: /docs/**\n      sites:\n        matrix:\n          languages: [en, 'fr*']\n    robots: noindex\n" +
			"  - target: {Sites: {Matrix: {Languages: de}}}\n    nofollow: true\n---\n",
		want: []cascadeWant{
			{Target: Target{Path: "/docs/**", Languages: []string{"en", "fr*"}}, Values: map[string]any{"robots": "noindex"}, Line: 3},
			{Target: Target{Languages: []string{"de"}}, Values: map[string]any{"nofollow": true}, Line: 9},
		},
	},
	{
		desc: "toml sites.matrix.languages next to the old lang",
		src:  "+++\n[[cascade]]\nrobots = 'noindex'\n[cascade.target]\nlang = 'en'\n[cascade.target.sites.matrix]\nlanguages = ['en', 'de']\nversions = ['v1']\n+++\n",
		want: []cascadeWant{{Target: Target{Lang: "en", Languages: []string{"en", "de"}}, Values: map[string]any{"robots": "noindex"}, Line: 2}},
	},
	{
		desc: "json sites.matrix.languages",
		src:  "{\"cascade\": {\"target\": {\"sites\": {\"matrix\": {\"languages\": [\"nn\"]}}},\n \"robots\": \"noindex\"}}\n",
		want: []cascadeWant{{Target: Target{Languages: []string{"nn"}}, Values: map[string]any{"robots": "noindex"}, Line: 1}},
	},
	{
		desc: "sites.matrix.languages of the wrong type",
		src:  "---\ncascade:\n  - target: {sites: {matrix: {languages: [en, {x: 1}]}}}\n---\n",
		err:  `p.md:3: front matter: cascade: target: sites.matrix.languages: want a string or a list of strings, got a list of values that are not all strings (a map)`,
	},
	{
		desc: "no cascade",
		src:  "---\ntitle: x\n---\n",
	},
	{
		desc: "cascade of the wrong type",
		src:  "---\ncascade: noindex\n---\n",
		err:  `p.md:2: front matter: cascade: want a map or a list of maps, got "noindex"`,
	},
	{
		desc: "list entry that is not a map",
		src:  "---\ncascade:\n  - robots: noindex\n  - 7\n---\n",
		want: []cascadeWant{{Values: map[string]any{"robots": "noindex"}, Line: 3}},
		err:  `p.md:4: front matter: cascade: entry 2: want a map, got 7`,
	},
	{
		desc: "target that is not a map",
		src:  "---\ncascade:\n  _target: /blog/**\n---\n",
		err:  `p.md:2: front matter: cascade: _target: want a map, got "/blog/**"`,
	},
	{
		desc: "target path that is not a string",
		src:  "---\ncascade:\n  - target: {path: [/a, /b]}\n---\n",
		err:  `p.md:3: front matter: cascade: target: path: want a string, got a list of strings`,
	},
}

func TestCascades(t *testing.T) {
	for _, tc := range cascadeCases {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("p.md", []byte(tc.src), Hugo)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			cs, err := d.Cascades()
			var got []cascadeWant
			for _, c := range cs {
				got = append(got, cascadeWant{Target: c.Target, Values: c.Values.Any(false).(map[string]any), Line: c.Line})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Cascades() =\n%+v\nwant\n%+v", got, tc.want)
			}
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.err {
				t.Errorf("Cascades() error = %q, want %q", gotErr, tc.err)
			}
			gotWarn := ""
			if w := errors.Join(d.Warnings...); w != nil {
				gotWarn = w.Error()
			}
			if gotWarn != tc.warn {
				t.Errorf("warnings = %q, want %q", gotWarn, tc.warn)
			}
		})
	}
}
