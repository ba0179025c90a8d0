package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/robotsblock"
)

// SPEC §9's example, in each format.
var robotsForms = []struct{ file, src string }{
	{"robotsmith.yaml", `robots_txt:
  groups:
    - agents: ["*"]
      disallow: [/search/]
      allow: []
    - agents: Applebot
      disallow: /
  sitemaps: true
ai:
  train: no
  search: yes
  input: yes
  block: [training, all-ai]
  meta: false
`},
	{"robotsmith.toml", `[robots_txt]
sitemaps = true

[[robots_txt.groups]]
agents = ["*"]
disallow = ["/search/"]
allow = []

[[robots_txt.groups]]
agents = "Applebot"
disallow = "/"

[ai]
train = false
search = "yes"
input = true
block = ["training", "all-ai"]
meta = false
`},
	{"robotsmith.json", `{
  "robots_txt": {
    "groups": [
      {"agents": ["*"], "disallow": ["/search/"], "allow": []},
      {"agents": "Applebot", "disallow": "/"}
    ],
    "sitemaps": true
  },
  "ai": {"train": "no", "search": "yes", "input": "yes", "block": ["training", "all-ai"], "meta": false}
}
`},
}

func TestRobotsAndAI(t *testing.T) {
	want := aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes,
		Block: []crawlers.Purpose{crawlers.Training, crawlers.AISearch, crawlers.AIInput}}
	for _, tc := range robotsForms {
		t.Run(tc.file, func(t *testing.T) {
			c, err := Parse(tc.file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			got := c.AI
			got.Line, got.BlockLine, got.MetaLine = 0, 0, 0
			got.TrainLine, got.SearchLine, got.InputLine = 0, 0, 0
			if !reflect.DeepEqual(got, want) {
				t.Errorf("AI: got %+v, want %+v", got, want)
			}
			if c.AI.Line == 0 || c.AI.BlockLine == 0 || c.AI.MetaLine < c.AI.BlockLine {
				t.Errorf("AI lines %d, %d, %d: want all three, meta's not before block's", c.AI.Line, c.AI.BlockLine, c.AI.MetaLine)
			}
			r := c.RobotsTxt
			if !r.Sitemaps || r.Line == 0 || r.SitemapsLine == 0 || len(r.Groups) != 2 {
				t.Fatalf("RobotsTxt: got %+v", r)
			}
			g0, g1 := r.Groups[0], r.Groups[1]
			if !reflect.DeepEqual(g0.Agents, []string{"*"}) || !reflect.DeepEqual(g0.Disallow, []string{"/search/"}) || len(g0.Allow) != 0 || g0.Line == 0 {
				t.Errorf("groups[1]: got %+v", g0)
			}
			if !reflect.DeepEqual(g1.Agents, []string{"Applebot"}) || !reflect.DeepEqual(g1.Disallow, []string{"/"}) || g1.Line <= g0.Line {
				t.Errorf("groups[2]: got %+v (line after groups[1]'s %d)", g1, g0.Line)
			}
			in := robotsInput(c, []string{"/sitemap.xml"}, "https://example.com/")
			b, err := robotsblock.Render(in)
			if err != nil {
				t.Fatalf("the parsed config does not render: %v", err)
			}
			if !strings.Contains(string(b.Text), "Sitemap: https://example.com/sitemap.xml") ||
				!strings.Contains(string(b.Text), "Content-Usage: train-ai=n, search=y") {
				t.Errorf("rendered block lacks the sitemap or the Content-Usage line:\n%s", b.Text)
			}
		})
	}
}

// TestAIPlacementReserveLLMs: ai.placement, ai.reserve and llms_txt are read in any case, with
// their lines, and an absent key is the default (both, no reservation, llms.txt pruned).
func TestAIPlacementReserveLLMs(t *testing.T) {
	tests := []struct {
		desc, src string
		placement aipref.Placement
		reserve   bool
		llms      string
		lines     [3]int // placement, reserve, llms_txt
	}{
		{"defaults", "ai:\n  train: no\n", aipref.Both, false, "prune", [3]int{}},
		{"headers", "ai:\n  train: no\n  placement: headers\n  reserve: true\nllms_txt: generate\n", aipref.Headers, true, "generate", [3]int{3, 4, 5}},
		{"robots.txt in capitals", "ai:\n  placement: Robots.TXT\nllms_txt: KEEP\n", aipref.RobotsTxt, false, "keep", [3]int{2, 0, 3}},
		{"both, llms off", "llms_txt: off\nai:\n  placement: both\n  reserve: false\n", aipref.Both, false, "off", [3]int{3, 4, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c, err := Parse("robotsmith.yaml", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if c.AI.Placement != tc.placement || c.AI.Reserve != tc.reserve || c.LLMsTxtMode() != tc.llms {
				t.Errorf("got placement %v, reserve %v, llms_txt %q; want %v, %v, %q", c.AI.Placement, c.AI.Reserve, c.LLMsTxtMode(), tc.placement, tc.reserve, tc.llms)
			}
			if got := [3]int{c.AI.PlacementLine, c.AI.ReserveLine, c.LLMsTxtLine}; got != tc.lines {
				t.Errorf("lines: got %v, want %v", got, tc.lines)
			}
		})
	}
}

// TestAIWarnings: settings of ai that contradict each other are warnings at the config line of the
// one they are about, naming the other's line: block: [training] with input: yes disallows
// Google-Extended, which Google also reads for grounding Gemini's answers.
func TestAIWarnings(t *testing.T) {
	tests := []struct {
		desc, src string
		want      []string // each warning's text, in order
		related   []int    // each warning's other side's line, 0 for none
	}{
		{"agreeing", "ai:\n  train: no\n  input: no\n  block: [training]\n", nil, nil},
		{"Google-Extended blocked under training, input yes", "ai:\n  train: no\n  search: yes\n  input: yes\n  block: [training]\n", []string{
			"robotsmith.yaml:5: block: training disallows Amazonbot (Amazon), which the crawler catalogue also lists for ai-search, and search: yes (line 3) allows ai-search",
			"robotsmith.yaml:5: block: training disallows Google-Extended (Google), which the crawler catalogue also lists for ai-input, and input: yes (line 4) allows ai-input: the block withholds it from ai-input as well [RS0712 ai-blocked-use]"},
			[]int{3, 4}},
		{"input unsaid in headers", "ai:\n  input: no\n  placement: headers\n", []string{
			"robotsmith.yaml:3: placement: headers writes only the Content-Usage header"}, []int{2}},
		{"nothing to reserve", "ai:\n  train: yes\n  reserve: true\n", []string{
			"robotsmith.yaml:3: reserve: true, but train, search and input say no to nothing"}, []int{0}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			c, err := Parse("robotsmith.yaml", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			got := c.AIWarnings()
			if len(got) != len(tc.want) {
				t.Fatalf("got %d warnings %v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range got {
				if s := w.Text(); !strings.HasPrefix(s, tc.want[i]) {
					t.Errorf("warning %d: got %q, want it to start %q", i, s, tc.want[i])
				}
				if w.Severity != problem.Warning {
					t.Errorf("warning %d: severity %v", i, w.Severity)
				}
				var rel int
				if len(w.Related) > 0 {
					rel = w.Related[0].Line
				}
				if rel != tc.related[i] {
					t.Errorf("warning %d: other side at line %d, want %d", i, rel, tc.related[i])
				}
			}
		})
	}
}

// robotsInput is what a build renders robots.txt's block from (pipeline's robotsInput).
func robotsInput(c *Config, sitemaps []string, baseURL string) robotsblock.Input {
	in := robotsblock.Input{AI: c.AI, BaseURL: baseURL, SitemapsLine: c.RobotsTxt.SitemapsLine}
	for _, g := range c.RobotsTxt.Groups {
		in.Groups = append(in.Groups, robotsblock.Group{Agents: g.Agents, Disallow: g.Disallow, Allow: g.Allow})
	}
	if c.RobotsTxt.Sitemaps {
		in.Sitemaps = sitemaps
	}
	return in
}

// TestRobotsErrors: every bad robots_txt or ai value is an error naming the
// file and line; values that no aipref draft in force defines name the version.
func TestRobotsErrors(t *testing.T) {
	tests := []struct {
		desc, file, src string
		want            []string
	}{
		{"robots_txt not a map", "robotsmith.yaml", "robots_txt: yes\n", []string{`robotsmith.yaml:1: robots_txt: want a map`}},
		{"robots_txt unknown key", "robotsmith.yaml", "robots_txt:\n  sitemap: true\n", []string{`robotsmith.yaml:2: robots_txt: unknown key "sitemap" (known: groups, sitemaps)`}},
		{"sitemaps not a bool", "robotsmith.yaml", "robots_txt:\n  sitemaps: yes\n", []string{`robotsmith.yaml:2: robots_txt: sitemaps: want true or false`}},
		{"groups not a list", "robotsmith.yaml", "robots_txt:\n  groups: {agents: x}\n", []string{`robotsmith.yaml:2: robots_txt: groups: want a list`}},
		{"group unknown key", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disalow: [/a/]\n", []string{
			`robotsmith.yaml:4: robots_txt.groups[1]: unknown key "disalow" (known: agents, disallow, allow)`,
			`robotsmith.yaml:3: robots_txt.groups[1]: no disallow or allow`}},
		{"empty path", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow:\n        - /a/\n        - \"\"\n", []string{
			`robotsmith.yaml:6: robots_txt.groups[1]: disallow: an empty value; leave it out`}},
		{"misspelt crawler", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      disallow: [/a/]\n    - agents: [googlebto]\n      disallow: [/]\n", []string{
			`robotsmith.yaml:5: robots_txt.groups[2]: agents: "googlebto" is not a crawler robotsmith knows; did you mean "Googlebot"?`}},
		{"relative path", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: \"*\"\n      allow: search/\n", []string{
			`robotsmith.yaml:3: robots_txt.groups[1]: allow: "search/" must start with / (or *)`}},
		{"named and blocked", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [GPTBot]\n      allow: [/]\nai:\n  block: training\n", []string{
			`robotsmith.yaml:3: robots_txt.groups[1]: agents: GPTBot is also blocked by ai.block (line 6)`}},
		// Google's parser reads User-agent: AI2Bot as AI: a group for AI is merged with the block's.
		{"named and blocked as Google reads it", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [AI]\n      allow: [/]\nai:\n  block: training\n", []string{
			"robotsmith.yaml:3: robots_txt.groups[1]: agents: AI2Bot is also blocked by ai.block (line 6) (Google's parser reads both AI and AI2Bot as AI)"}},
		{"no agents", "robotsmith.yaml", "robots_txt:\n  groups:\n    - disallow: [/]\n", []string{
			`robotsmith.yaml:3: robots_txt.groups[1]: no agents (write agents: ["*"] for every crawler)`}},
		{"no rules", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n", []string{
			"robotsmith.yaml:3: robots_txt.groups[1]: no disallow or allow; a group without rules would run into the next group"}},
		{"token with a space", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [Kangaroo Bot]\n      disallow: [/]\n", []string{
			`robotsmith.yaml:3: robots_txt.groups[1]: agents: "Kangaroo Bot" is not a user-agent token`}},
		{"line break in a path", "robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [\"*\"]\n      allow: [\"/a\\nUser-agent: x\"]\n", []string{
			`robotsmith.yaml:3: robots_txt.groups[1]: allow: "/a\nUser-agent: x" holds a control character`}},
		{"ai not a map", "robotsmith.yaml", "ai: no\n", []string{`robotsmith.yaml:1: ai: want a map`}},
		{"ai bad pref", "robotsmith.yaml", "ai:\n  train: maybe\n", []string{`robotsmith.yaml:2: ai: train: "maybe" is not yes or no`}},
		{"ai pref as an aipref token", "robotsmith.yaml", "ai:\n  search: y\n", []string{`robotsmith.yaml:2: ai: search: "y" is not yes or no`}},
		{"ai dropped label as a key", "robotsmith.yaml", "ai:\n  train: no\n  train-genai: no\n", []string{
			`robotsmith.yaml:3: ai: unknown key "train-genai" (known: train, search, input, block, meta, placement, reserve); "train-genai" was a label of draft-ietf-aipref-vocab -02 and -03 (July to September 2025) and no version in force defines it (robotsmith follows draft-ietf-aipref-vocab-08`}},
		{"ai current label as a key", "robotsmith.yaml", "ai:\n  train-ai: n\n", []string{
			`robotsmith.yaml:2: ai: unknown key "train-ai" (known: train, search, input, block, meta, placement, reserve); train-ai is the draft-ietf-aipref-vocab-08 label that train: writes`}},
		{"ai content signal name as a key", "robotsmith.yaml", "ai:\n  ai-input: yes\n", []string{
			`robotsmith.yaml:2: ai: unknown key "ai-input"`, "ai-input is the Content-Signal name that input: writes"}},
		{"block unknown category", "robotsmith.yaml", "ai:\n  block:\n    - training\n    - search-engine\n", []string{
			`robotsmith.yaml:4: ai: block: "search-engine" is not a crawler category (known: training, ai-search, ai-input, all-ai)`}},
		{"block misspelt category", "robotsmith.yaml", "ai:\n  block: [trainning]\n", []string{
			`robotsmith.yaml:2: ai: block: "trainning" is not a crawler category (known: training, ai-search, ai-input, all-ai); did you mean "training"?`}},
		{"block dropped label", "robotsmith.yaml", "ai:\n  block: [bots]\n", []string{
			`robotsmith.yaml:2: ai: block: "bots" is not a crawler category`, "draft-ietf-aipref-vocab -03 and -04"}},
		{"meta not a bool", "robotsmith.yaml", "ai:\n  meta: noai\n", []string{`robotsmith.yaml:2: ai: meta: want true or false`}},
		{"placement unknown", "robotsmith.yaml", "ai:\n  train: no\n  placement: header\n", []string{
			`robotsmith.yaml:3: ai: placement: "header" is not one of both, robots.txt, headers; did you mean "headers"?`}},
		{"placement not a string", "robotsmith.yaml", "ai:\n  placement: [headers]\n", []string{`robotsmith.yaml:2: ai: placement: want a string`}},
		{"reserve not a bool", "robotsmith.yaml", "ai:\n  reserve: yes please\n", []string{`robotsmith.yaml:2: ai: reserve: want true or false`}},
		{"llms_txt unknown", "robotsmith.yaml", "llms_txt: generat\n", []string{
			`robotsmith.yaml:1: llms_txt: "generat" is not one of prune, keep, generate, off; did you mean "generate"?`}},
		{"toml group line", "robotsmith.toml", "[[robots_txt.groups]]\nagents = [\"*\"]\ndisallow = [\"/a/\"]\n\n[[robots_txt.groups]]\nagents = [\"bingbott\"]\ndisallow = [\"/\"]\n", []string{
			`robotsmith.toml:5: robots_txt.groups[2]: agents: "bingbott" is not a crawler robotsmith knows; did you mean "bingbot"?`}},
		{"json ai key", "robotsmith.json", "{\n  \"ai\": {\n    \"train\": \"nope\"\n  }\n}\n", []string{`robotsmith.json:3: ai: train: "nope" is not yes or no`}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse(tc.file, []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse: got no error, want one containing %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error: got %q, want it to contain %q", err, w)
				}
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *config.Error", err)
			}
		})
	}
}

// FuzzParseRobots: robots_txt and ai in any shape never panic, and a config
// that parses renders or refuses with an error, never a panic.
func FuzzParseRobots(f *testing.F) {
	for _, tc := range robotsForms {
		f.Add(tc.file, tc.src)
	}
	f.Add("robotsmith.yaml", "ai:\n  train-genai: no\n  block: [bots, training]\n")
	f.Add("robotsmith.yaml", "robots_txt:\n  groups:\n    - agents: [GPTbto, \"*\"]\n      disallow: [\"\", /a]\n")
	f.Fuzz(func(t *testing.T, file, src string) {
		c, err := Parse(file, []byte(src))
		if err != nil {
			return
		}
		if c == nil {
			t.Fatal("nil Config without an error")
		}
		_, _ = robotsblock.Render(robotsInput(c, []string{"/sitemap.xml"}, "https://example.com/"))
	})
}
