package crawlers

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/robotstxt"
)

// neverBlocked are the crawlers SPEC §9 says no category may block:
// search-engine crawlers, link-preview fetchers and Applebot.
var neverBlocked = []string{"Googlebot", "bingbot", "facebookexternalhit", "Twitterbot", "Slackbot", "Applebot"}

// TestCatalogue keeps the shipped catalogue honest.
func TestCatalogue(t *testing.T) {
	c, err := Parse([]byte(embedded))
	if err != nil {
		t.Fatalf("the shipped catalogue does not parse: %v", err)
	}
	if c.Version() < 1 || c.Date() == "" {
		t.Errorf("version %d, date %q: want a version and a date", c.Version(), c.Date())
	}
	seen := map[string]string{}
	for _, cr := range c.Crawlers() {
		t.Run(cr.Name(), func(t *testing.T) {
			for _, tok := range cr.Tokens {
				if other, dup := seen[strings.ToLower(tok)]; dup {
					t.Errorf("token %q is also %s's", tok, other)
				}
				seen[strings.ToLower(tok)] = cr.Name()
			}
			if len(cr.Purposes) == 0 || len(cr.Sources) == 0 || cr.Operator == "" || cr.Note == "" {
				t.Errorf("purposes %v, sources %v, operator %q, note %q: want all four", cr.Purposes, cr.Sources, cr.Operator, cr.Note)
			}
			for _, s := range cr.Sources {
				if !strings.HasPrefix(s.URL, "https://") || s.Title == "" {
					t.Errorf("source %+v: want a title and an https URL", s)
				}
			}
			if cr.Generic && slices.ContainsFunc([]Purpose{Training, AISearch, AIInput}, cr.BlockedBy) {
				t.Errorf("a generic name is blocked by a category")
			}
			if cr.Has(SearchEngine) || cr.Has(LinkPreview) {
				if got := c.Block(Training, AISearch, AIInput); slices.ContainsFunc(got, func(b Crawler) bool { return b.Name() == cr.Name() }) {
					t.Errorf("a %v crawler is blocked by a category", cr.Purposes)
				}
			}
		})
	}
	all := c.Block(Training, AISearch, AIInput)
	for _, name := range neverBlocked {
		cr, ok := c.Lookup(name)
		switch {
		case !ok:
			t.Errorf("%s is not in the catalogue", name)
		case cr.Blockable():
			t.Errorf("%s (%v) may be blocked by a category", name, cr.Purposes)
		case slices.ContainsFunc(all, func(b Crawler) bool { return b.Name() == cr.Name() }):
			t.Errorf("%s is in Block(all AI categories)", name)
		}
	}
	for _, name := range []string{"Google-Extended", "Applebot-Extended"} {
		cr, ok := c.Lookup(name)
		if !ok || !cr.RobotsTxtOnly || !cr.BlockedBy(Training) {
			t.Errorf("%s: found %v, robots.txt only %v, blocked by training %v; want all three", name, ok, cr.RobotsTxtOnly, cr.BlockedBy(Training))
		}
	}
	if !slices.ContainsFunc(c.Crawlers(), func(cr Crawler) bool { return cr.Generic }) {
		t.Errorf("no generic name is listed, so nothing shows that categories leave them alone")
	}
}

// TestGoogleReading: Google's parser reads a User-agent value up to its first character that is
// not a letter, '-' or '_' (robotstxt.ProductToken), so a token such as AI2Bot names the crawler
// "AI" to it. Tokens read alike must be blocked alike by every category, or a block written for one
// crawler would, to that reading, block or be merged with another's group; and no token may be
// read as nothing.
func TestGoogleReading(t *testing.T) {
	c := Default()
	type reader struct {
		token string
		cr    Crawler
	}
	byReading := map[string]reader{}
	differ := 0
	for _, cr := range c.Crawlers() {
		for _, tok := range cr.Tokens {
			read := strings.ToLower(robotstxt.ProductToken(tok))
			if read == "" {
				t.Errorf("%s: Google's parser reads it as no token at all", tok)
				continue
			}
			if read != strings.ToLower(tok) {
				differ++
			}
			other, ok := byReading[read]
			byReading[read] = reader{tok, cr}
			if !ok || other.cr.Name() == cr.Name() {
				continue
			}
			for _, p := range []Purpose{Training, AISearch, AIInput} {
				if cr.BlockedBy(p) != other.cr.BlockedBy(p) {
					t.Errorf("%s and %s are both read as %q by Google's parser, but a %s block takes only one of them", tok, other.token, read, p)
				}
			}
		}
	}
	if differ == 0 {
		t.Errorf("no token is read differently by Google's parser: the cases this test is for (AI2Bot, img2dataset) are gone")
	}
	// The known cases, so that a change to the reading or the catalogue is seen.
	for tok, want := range map[string]string{"AI2Bot": "AI", "Ai2Bot-Dolma": "Ai", "img2dataset": "img", "archive.org_bot": "archive", "GPTBot": "GPTBot"} {
		if _, ok := c.Lookup(tok); !ok {
			t.Errorf("%s is not in the catalogue", tok)
		}
		if got := robotstxt.ProductToken(tok); got != want {
			t.Errorf("ProductToken(%q) = %q, want %q", tok, got, want)
		}
	}
}

func TestBlock(t *testing.T) {
	c := Default()
	names := func(cs []Crawler) []string {
		var out []string
		for _, cr := range cs {
			out = append(out, cr.Name())
		}
		return out
	}
	for _, tc := range []struct {
		desc      string
		purposes  []Purpose
		want, not []string
	}{
		{"training", []Purpose{Training},
			[]string{"GPTBot", "ClaudeBot", "Google-Extended", "Applebot-Extended", "CCBot", "Bytespider", "meta-externalagent"},
			[]string{"Googlebot", "Applebot", "OAI-SearchBot", "ChatGPT-User", "facebookexternalhit", "PetalBot", "Spider"}},
		{"ai-search", []Purpose{AISearch},
			[]string{"OAI-SearchBot", "Claude-SearchBot", "PerplexityBot", "meta-webindexer"},
			[]string{"GPTBot", "bingbot", "Googlebot", "ChatGPT-User"}},
		{"ai-input", []Purpose{AIInput},
			[]string{"ChatGPT-User", "Claude-User", "Perplexity-User", "Google-Extended", "DuckAssistBot"},
			[]string{"PetalBot", "Operator", "GPTBot", "Twitterbot"}},
		{"not an AI purpose selects nothing", []Purpose{SearchEngine, LinkPreview, Other}, nil,
			[]string{"Googlebot", "Twitterbot", "GoogleOther"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := names(c.Block(tc.purposes...))
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("Block(%v) = %v: %s missing", tc.purposes, got, w)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("Block(%v) = %v: %s must not be there", tc.purposes, got, n)
				}
			}
		})
	}
	all := names(c.Block(Training, AISearch, AIInput, Training))
	seen := map[string]bool{}
	for _, n := range all {
		if seen[n] {
			t.Errorf("Block(every category) lists %s twice", n)
		}
		seen[n] = true
	}
}

func TestLookup(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		token, want string
		ok          bool
	}{
		{"GPTBot", "GPTBot", true},
		{" gptbot ", "GPTBot", true},
		{"META-EXTERNALAGENT", "meta-externalagent", true},
		{"googlebot-news", "Googlebot-News", true},
		{"otherbot", "", false},
		{"", "", false},
	} {
		t.Run(tc.token, func(t *testing.T) {
			cr, ok := c.Lookup(tc.token)
			got := ""
			if ok {
				got = cr.Name()
			}
			if ok != tc.ok || got != tc.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tc.token, got, ok, tc.want, tc.ok)
			}
		})
	}
	// Callers get copies: changing one does not change the catalogue.
	cr, _ := c.Lookup("GPTBot")
	cr.Tokens[0] = "changed"
	if again, _ := c.Lookup("GPTBot"); again.Name() != "GPTBot" {
		t.Errorf("Lookup handed out the catalogue's own slice")
	}
}

func TestResembles(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		name, want string
	}{
		// SPEC §4's examples of misspelt agents.
		{"googlebto", "Googlebot"},
		{"bingbott", "bingbot"},
		{"gooblebot-news", "Googlebot-News"},
		{"GPTbto", "GPTBot"}, // a swap counts as one edit
		{"applebot-extnded", "Applebot-Extended"},
		{"perplexitybott", "PerplexityBot"},
		// Names that are fine.
		{"otherbot", ""}, // SPEC §4: "otherbot is fine"
		{"GPTBot", ""},
		{"googlebot-news", ""},
		{"robots", ""},
		{"mybot", ""}, // two edits from CCBot and msnbot: too short to call a typo
		{"code", ""},  // a generic name, and equal to one
		{"node", ""},  // one edit from the generic Code, which is never a target
		{"", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := c.Resembles(tc.name)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Resembles(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
			}
		})
	}
}

// TestResemblesCost: a front matter or a config may name tens of thousands of agents, each checked
// by Resembles (SPEC §10: work per input linear with a small constant). What it compares against is
// worked out once, when the catalogue is parsed: a call neither copies nor sorts the catalogue's
// tokens, and Tokens copies its sorted list without sorting it again.
func TestResemblesCost(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		desc, name string
		max        float64
	}{
		{"a typo", "googlebto", 8},
		{"a fine name", "otherbot", 8},
		{"a long name", strings.Repeat("agent", 200), 8},
		{"upper case", "AgentSmith", 8},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := testing.AllocsPerRun(20, func() { c.Resembles(tc.name) }); got > tc.max {
				t.Errorf("Resembles(%.20q) allocates %.0f times a call, want at most %.0f (the catalogue's %d tokens are not copied or sorted per call)",
					tc.name, got, tc.max, len(c.Tokens()))
			}
		})
	}
	if got := testing.AllocsPerRun(20, func() { c.Tokens() }); got != 1 {
		t.Errorf("Tokens allocates %.0f times a call, want 1 (a copy of the list sorted once)", got)
	}
}

func TestTokens(t *testing.T) {
	c := Default()
	toks := c.Tokens()
	n := 0
	for _, cr := range c.Crawlers() {
		n += len(cr.Tokens)
	}
	if len(toks) != n {
		t.Errorf("Tokens() has %d tokens, the crawlers %d", len(toks), n)
	}
	if !slices.IsSortedFunc(toks, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }) {
		t.Errorf("Tokens() is not sorted without case: %v", toks)
	}
	// SPEC §4 calls these well-known crawler tokens.
	for _, want := range []string{"googlebot", "bingbot", "googlebot-news"} {
		if !slices.ContainsFunc(toks, func(t string) bool { return strings.EqualFold(t, want) }) {
			t.Errorf("Tokens() lacks %s", want)
		}
	}
}

var parseErrors = []struct {
	desc, data, want string
}{
	{"not YAML", "version: [", "crawlers: yaml"},
	{"unknown field", "version: 1\ndate: \"2026-01-01\"\nvesrion: 2\n", "field vesrion not found"},
	{"no version", "date: \"2026-01-01\"\n", "version must be a positive number"},
	{"bad date", "version: 1\ndate: \"yesterday\"\n", `date "yesterday" is not a YYYY-MM-DD date`},
	{"duplicate token without case", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "https://x"}}
crawlers:
  - {tokens: [GPTBot], operator: O, purposes: [training], note: N, sources: [s]}
  - {tokens: [gptbot], operator: O, purposes: [training], note: N, sources: [s]}
`, `crawler 2 (gptbot): token "gptbot" is also crawler 1's (GPTBot)`},
	{"no purpose", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "https://x"}}
crawlers:
  - {tokens: [A], operator: O, note: N, sources: [s]}
`, "crawler 1 (A): no purpose"},
	{"unknown purpose", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "https://x"}}
crawlers:
  - {tokens: [A], operator: O, purposes: [scraping], note: N, sources: [s]}
`, `unknown purpose "scraping"`},
	{"no source", `version: 1
date: "2026-01-01"
crawlers:
  - {tokens: [A], operator: O, purposes: [other], note: N}
`, "crawler 1 (A): no source"},
	{"source not listed", `version: 1
date: "2026-01-01"
crawlers:
  - {tokens: [A], operator: O, purposes: [other], note: N, sources: [nowhere]}
`, `source "nowhere" is not listed under sources`},
	{"source not used", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "https://x"}, t: {title: T, url: "https://y"}}
crawlers:
  - {tokens: [A], operator: O, purposes: [other], note: N, sources: [s]}
`, `source "t" is listed but no crawler uses it`},
	{"token with a space", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "https://x"}}
crawlers:
  - {tokens: [Kangaroo Bot], operator: O, purposes: [training], note: N, sources: [s]}
`, `token "Kangaroo Bot" may hold only`},
	{"no operator or note", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "https://x"}}
crawlers:
  - {tokens: [A], purposes: [other], sources: [s]}
`, "crawler 1 (A): no operator"},
	{"source without https URL", `version: 1
date: "2026-01-01"
sources: {s: {title: T, url: "http://x"}}
crawlers:
  - {tokens: [A], operator: O, purposes: [other], note: N, sources: [s]}
`, `source "s" needs a title and an https URL`},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range parseErrors {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Parse([]byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse: got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestParsePurpose(t *testing.T) {
	for _, p := range []Purpose{Training, AISearch, AIInput, SearchEngine, LinkPreview, Other} {
		got, err := ParsePurpose(" " + strings.ToUpper(p.String()) + " ")
		if err != nil || got != p {
			t.Errorf("ParsePurpose(%q) = %v, %v; want %v", p.String(), got, err, p)
		}
	}
	if _, err := ParsePurpose("all-ai"); err == nil {
		t.Errorf("ParsePurpose(all-ai): want an error, all-ai is a config category, not a purpose")
	}
}

// FuzzParse: Parse never panics, and a catalogue it accepts keeps its promises.
func FuzzParse(f *testing.F) {
	f.Add([]byte(embedded))
	for _, tc := range parseErrors {
		f.Add([]byte(tc.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, tok := range c.Tokens() {
			if seen[strings.ToLower(tok)] {
				t.Fatalf("accepted a duplicate token %q", tok)
			}
			seen[strings.ToLower(tok)] = true
			if _, ok := c.Lookup(tok); !ok {
				t.Fatalf("Lookup(%q) fails for a listed token", tok)
			}
		}
		for _, cr := range c.Crawlers() {
			if len(cr.Purposes) == 0 || len(cr.Sources) == 0 {
				t.Fatalf("accepted %s without a purpose or source", cr.Name())
			}
		}
	})
}

// TestPurposesOfSharedTokens: tokens that one operator reads for several uses, so that blocking
// them for one withholds the others (aipref's Conflicts warns of it). Each is checked against its
// operator's page as the catalogue's sources name it.
func TestPurposesOfSharedTokens(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		token, purposes, source string
	}{
		// Google's common crawlers page: Google-Extended manages whether content may be used for
		// training future generations of Gemini models and for grounding in Gemini Apps and
		// Grounding with Google Search on Vertex AI.
		{"Google-Extended", "[training ai-input]", "google-common"},
		// Apple's About Applebot: Applebot-Extended governs training of Apple's foundation models.
		{"Applebot-Extended", "[training]", "apple"},
		// Amazon's About Amazonbot: improves services such as Alexa answers that cite the site, and
		// may train Amazon's AI models.
		{"Amazonbot", "[training ai-search]", "amazon"},
	} {
		t.Run(tc.token, func(t *testing.T) {
			cr, ok := c.Lookup(tc.token)
			if !ok {
				t.Fatalf("%s is not in the catalogue", tc.token)
			}
			if got := fmt.Sprint(cr.Purposes); got != tc.purposes {
				t.Errorf("purposes %s, want %s", got, tc.purposes)
			}
			if !slices.ContainsFunc(cr.Sources, func(s Source) bool { return s.Key == tc.source }) {
				t.Errorf("sources %v lack %s", cr.Sources, tc.source)
			}
		})
	}
}
