package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// codes are the codes of the problems err joins, each checked to be a *Error (or, with plain, any
// error) whose Problem prints as it does.
func codes(t *testing.T, err error, plain bool) []problem.Code {
	t.Helper()
	if err == nil {
		return nil
	}
	list := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	}
	var out []problem.Code
	for _, e := range list {
		if ce := (*Error)(nil); !errors.As(e, &ce) && !plain {
			t.Errorf("%v (%T) is not an *Error", e, e)
		}
		p, ok := problem.Of(e)
		if !ok {
			t.Errorf("%v has no code", e)
		}
		if _, isCarrier := e.(problem.Carrier); isCarrier && p.Error() != e.Error() {
			t.Errorf("its Problem prints %q, want %q", p.Error(), e.Error())
		}
		out = append(out, p.Code)
	}
	return out
}

// TestProblemCodes checks that every error reading a configuration gives carries its code.
func TestProblemCodes(t *testing.T) {
	deep := "x: " + strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2) + "\n"
	aliases := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
	var many strings.Builder
	for i := range maxErrors + 1 {
		fmt.Fprintf(&many, "k%d: 1\n", i)
	}
	for _, tc := range []struct {
		desc string
		file string // robotsmith.yaml when ""
		src  string
		want []problem.Code
	}{
		{"syntax", "", "tags: [three\n", []problem.Code{problem.ConfigSyntax}},
		{"toml syntax", "robotsmith.toml", "tags = \n", []problem.Code{problem.ConfigSyntax}},
		{"not a map", "", "- tags\n", []problem.Code{problem.ConfigNotAMap}},
		{"too deep", "", deep, []problem.Code{problem.ConfigTooDeep}},
		{"aliases", "", aliases, []problem.Code{problem.ConfigAliases}},
		{"unknown key", "", "tgas: three\n", []problem.Code{problem.ConfigUnknownKey}},
		{"misspelt selector", "", "rules:\n  - paht: /a/\n    robots: noindex\n", []problem.Code{problem.ConfigUnknownKey}},
		{"repeated key", "", "tags: three\ntags: single\n", []problem.Code{problem.ConfigRepeatedKey}},
		{"wrong type", "", "command: [a]\n", []problem.Code{problem.ConfigWrongType}},
		{"not a bool", "", "headers: {html: maybe}\n", []problem.Code{problem.ConfigWrongType}},
		{"unknown value", "", "tags: tree\n", []problem.Code{problem.ConfigUnknownValue}},
		{"empty kind", "", "rules:\n  - kind: []\n    robots: noindex\n", []problem.Code{problem.ConfigEmptyValue, problem.RuleNoSelector}},
		{"no selector", "", "rules:\n  - robots: noindex\n", []problem.Code{problem.RuleNoSelector}},
		{"no directives", "", "rules:\n  - path: /a/\n", []problem.Code{problem.RuleNoDirectives}},
		{"agent without directives", "", "defaults:\n  robots: []\n", []problem.Code{problem.RuleNoDirectives}},
		{"glob", "", "rules:\n  - path: a/\n    robots: noindex\n", []problem.Code{problem.BadPathGlob}},
		{"agent name", "", "defaults:\n  google bot: noindex\n", []problem.Code{problem.InvalidAgentName}},
		{"ai preference", "", "ai:\n  train: maybe\n", []problem.Code{problem.AIPreferenceInvalid}},
		{"ai category", "", "ai:\n  block: [trainning]\n", []problem.Code{problem.AICategoryUnknown}},
		{"robots group without agents", "", "robots_txt:\n  groups:\n    - disallow: [/]\n", []problem.Code{problem.RobotsGroupNoAgents}},
		{"robots group without rules", "", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n", []problem.Code{problem.RobotsGroupNoRules}},
		{"robots token", "", "robots_txt:\n  groups:\n    - agents: [a b]\n      disallow: [/]\n", []problem.Code{problem.RobotsAgentInvalid}},
		{"robots misspelt crawler", "", "robots_txt:\n  groups:\n    - agents: [googlebto]\n      disallow: [/]\n", []problem.Code{problem.RobotsAgentMisspelt}},
		{"robots crawler also blocked", "", "robots_txt:\n  groups:\n    - agents: [GPTBot]\n      allow: [/]\nai:\n  block: training\n", []problem.Code{problem.RobotsAgentAlsoBlocked}},
		{"robots path", "", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [private]\n", []problem.Code{problem.RobotsPathInvalid}},
		{"robots empty path", "", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [\"\"]\n", []problem.Code{problem.ConfigEmptyValue, problem.RobotsGroupNoRules}},
		{"more problems", "", many.String(), append(repeatCode(problem.ConfigUnknownKey, maxErrors), problem.MoreErrors)},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			file := tc.file
			if file == "" {
				file = "robotsmith.yaml"
			}
			_, err := Parse(file, []byte(tc.src))
			if got := codes(t, err, false); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got codes %v, want %v (%v)", got, tc.want, err)
			}
		})
	}
}

func repeatCode(c problem.Code, n int) []problem.Code {
	out := make([]problem.Code, n)
	for i := range out {
		out[i] = c
	}
	return out
}

// TestRelatedPlaces checks that a problem with two sides names the other one.
func TestRelatedPlaces(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		line      int // of the other side
	}{
		{"a key written twice", "tags: three\nexisting: merge\ntags: single\n", 1},
		{"a crawler ai.block blocks", "ai:\n  block: training\nrobots_txt:\n  groups:\n    - agents: [GPTBot]\n      allow: [/]\n", 2},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse("robotsmith.yaml", []byte(tc.src))
			if j, ok := err.(interface{ Unwrap() []error }); ok && len(j.Unwrap()) == 1 {
				err = j.Unwrap()[0]
			}
			p, _ := problem.Of(err)
			if len(p.Related) != 1 || p.Related[0].File != "robotsmith.yaml" || p.Related[0].Line != tc.line {
				t.Errorf("related: got %+v, want robotsmith.yaml:%d (%v)", p.Related, tc.line, err)
			}
		})
	}
}

// TestLoadAndSiteCodes checks the codes of Load's, CheckSite's and CheckInside's errors.
func TestLoadAndSiteCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("robotsmith.yaml", "tags: three\n")
	write("robotsmith.toml", "tags = \"three\"\n")
	big := write("big.yaml", "# "+strings.Repeat("x", MaxSize)+"\n")
	c, err := Parse("robotsmith.yaml", []byte("output: ../elsewhere\nrules:\n  - kind: pagez\n    robots: noindex\n  - lang: fr\n    robots: noindex\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc  string
		err   func() error
		plain bool // not a *config.Error: its code is in what it wraps
		want  []problem.Code
	}{
		{"two files", func() error { _, err := Load(dir, ""); return err }, false, []problem.Code{problem.ConfigTwoFiles}},
		{"not found", func() error { _, err := Load(dir, filepath.Join(dir, "none.yaml")); return err }, true, []problem.Code{problem.ConfigNotFound}},
		{"too large", func() error { _, err := Load(dir, big); return err }, false, []problem.Code{problem.ConfigTooLarge}},
		{"kind and lang", func() error { return c.CheckSite(Site{Generator: "hugo", Kinds: []string{"page"}}) }, false,
			[]problem.Code{problem.UnknownKind, problem.UnknownLang}},
		{"outside", func() error { return c.CheckInside(dir, false) }, false, []problem.Code{problem.ConfigOutsideSite}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			err := tc.err()
			if got := codes(t, err, tc.plain); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got codes %v, want %v (%v)", got, tc.want, err)
			}
		})
	}
}
