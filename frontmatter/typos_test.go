package frontmatter

import (
	"errors"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

// misspeltKeyCases: a key that looks like a misspelt robots key is an error when it would have
// hidden the page, a warning when it would have restricted it otherwise, and nothing else
// (typos.go; SPEC §4 fails closed on a misspelt restriction, §2 is never stricter than the
// generator about keys robotsmith does not own).
var misspeltKeyCases = []struct {
	desc    string
	dialect Dialect
	src     string
	err     string // "" for none
	warn    string // "" for none
}{
	// Errors: the page would be published.
	{"one letter dropped", Hugo, "---\ntitle: x\nnoindx: true\n---\n", `p.md:3: front matter: unknown key "noindx" (did you mean "noindex"?): looks misspelt: robotsmith reads robots, noindex, nofollow and unavailable_after, and as written it would publish a page meant to be hidden`, ""},
	{"two letters dropped", Hugo, "---\nnindx: true\n---\n", `unknown key "nindx" (did you mean "noindex"?)`, ""},
	{"two neighbours swapped", Hugo, "---\nnoidnex: yes\n---\n", `unknown key "noidnex" (did you mean "noindex"?)`, ""},
	{"upper case, as written", Hugo, "---\nNoIndx: true\n---\n", `unknown key "NoIndx" (did you mean "noindex"?)`, ""},
	{"underscore", Hugo, "---\nno_index: true\n---\n", `unknown key "no_index" (did you mean "noindex"?)`, ""},
	{"hyphen", Jekyll, "---\nno-index: true\n---\n", `unknown key "no-index" (did you mean "noindex"?)`, ""},
	{"Cyrillic lookalike", Hugo, "---\nnoіndex: true\n---\n", `unknown key "noіndex" (did you mean "noindex"?)`, ""},
	{"robots misspelt, noindex", Hugo, "---\nrobtos: noindex\n---\n", `unknown key "robtos" (did you mean "robots"?)`, ""},
	{"robots misspelt, a list with none", Hugo, "---\nrobts: [none]\n---\n", `unknown key "robts" (did you mean "robots"?)`, ""},
	{"robots misspelt, noindex for one crawler", Hugo, "---\nrobtos:\n  googlebot: noindex\n---\n", `p.md:2: front matter: unknown key "robtos"`, ""},
	{"robots misspelt, value misspelt too", Hugo, "---\nrobot: noindx\n---\n", `unknown key "robot" (did you mean "robots"?)`, ""},
	{"under Hugo's params", Hugo, "---\nparams:\n  noindx: true\n---\n", `p.md:3: front matter: unknown key "params.noindx" (did you mean "noindex"?)`, ""},
	{"TOML", Hugo, "+++\nnoindx = true\n+++\n", `p.md:2: front matter: unknown key "noindx"`, ""},
	{"JSON", Hugo, "{\n\"title\": \"x\",\n\"noindx\": true\n}\n", `p.md:3: front matter: unknown key "noindx"`, ""},
	{"a cascade entry", Hugo, "---\ncascade:\n  - noindx: true\n---\n", `unknown key "noindx" (did you mean "noindex"?)`, ""},
	// Warnings: the page is published as meant, a restriction on it is missing.
	{"nofollow misspelt", Hugo, "---\nnofolow: true\n---\n", "", `p.md:2: front matter: unknown key "nofolow" (did you mean "nofollow"?): robotsmith does not read it`},
	{"robots misspelt, nosnippet", Jekyll, "---\nrobtos: nosnippet\n---\n", "", `unknown key "robtos" (did you mean "robots"?)`},
	{"robots misspelt, a malformed value", Hugo, "---\nrobtos: max-snippet:lots\n---\n", "", `unknown key "robtos"`},
	{"unavailable_after with a hyphen", Hugo, "---\nunavailable-after: 2027-01-31\n---\n", "", `unknown key "unavailable-after" (did you mean "unavailable_after"?)`},
	{"unavailable_after run together", Hugo, "---\nunavailableafter: 2027-01-31\n---\n", "", `(did you mean "unavailable_after"?)`},
	// Nothing: not robotsmith's.
	{"a misspelt shorthand set to false", Hugo, "---\nnoindx: false\n---\n", "", ""},
	{"robots misspelt, index and follow only", Hugo, "---\nrobtos: index, follow\n---\n", "", ""},
	{"a font", Hugo, "---\nroboto: Roboto Slab\n---\n", "", ""},
	{"a theme's robot switch", Hugo, "---\nrobot: true\n---\n", "", ""},
	{"index is a word of its own", Hugo, "---\nindex: true\n---\n", "", ""},
	{"follow is a word of its own", Jekyll, "---\nfollow: true\n---\n", "", ""},
	{"a key far from every robots key", Hugo, "---\nnoodp: true\n---\n", "", ""},
	{"an empty value", Hugo, "---\nnoindx:\n---\n", "", ""},
	{"the keys themselves", Hugo, "---\nnoindex: true\nRobots: nosnippet\n---\n", "", ""},
}

func TestMisspeltKeys(t *testing.T) {
	for _, tc := range misspeltKeyCases {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("p.md", []byte(tc.src), tc.dialect)
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.Robots()
			if _, cerr := d.Cascades(); cerr != nil && d.dialect == Hugo {
				err = errors.Join(err, cerr)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("error: %v, want none", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error: got %v, want one containing %q", err, tc.err)
			case tc.err != "" && !errors.Is(err, rules.ErrMisspelt):
				t.Errorf("error %v does not wrap rules.ErrMisspelt", err)
			}
			var warns []string
			for _, w := range d.Warnings {
				warns = append(warns, w.Error())
			}
			got := strings.Join(warns, "\n")
			switch {
			case tc.warn == "" && got != "":
				t.Errorf("warnings: %q, want none", got)
			case tc.warn != "" && !strings.Contains(got, tc.warn):
				t.Errorf("warnings: got %q, want one containing %q", got, tc.warn)
			}
		})
	}
}
