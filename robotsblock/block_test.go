package robotsblock

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/aipref"
	"github.com/robotsmith/robotsmith/config"
	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/internal/markers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// specPolicy is SPEC §9's example ai policy.
var specPolicy = aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes,
	Block: []crawlers.Purpose{crawlers.Training}, Line: 7, BlockLine: 11}

var specGroups = []Group{{Agents: []string{"*"}, Disallow: []string{"/search/"}}}

// goldenCases render a block and merge it into testdata/NAME.input (no
// file: the robots.txt is created); the result is testdata/NAME.golden.
var goldenCases = []struct {
	name string
	in   Input
}{
	// SPEC §9's example config, into a site without robots.txt.
	{"created", Input{Groups: specGroups, AI: specPolicy, Sitemaps: []string{"/sitemap.xml"}, BaseURL: "https://example.com/"}},
	// An old block in the middle of the user's file is replaced; the user's lines around it stay.
	{"replaced", Input{Groups: specGroups, AI: specPolicy, Sitemaps: []string{"/sitemap.xml"}, BaseURL: "https://example.com/"}},
	// A theme's robots.txt without a block (CRLF, no final line break): the block is appended.
	{"user-lines-kept", Input{AI: aipref.Policy{Train: aipref.No}}},
	// The config no longer asks for anything: the block goes, the user's lines stay.
	{"removed", Input{}},
	{"category-training", Input{AI: aipref.Policy{Block: []crawlers.Purpose{crawlers.Training}}}},
	{"category-ai-search", Input{AI: aipref.Policy{Block: []crawlers.Purpose{crawlers.AISearch}}}},
	{"category-ai-input", Input{AI: aipref.Policy{Block: []crawlers.Purpose{crawlers.AIInput}}}},
	{"category-all-ai", Input{AI: aipref.Policy{Block: []crawlers.Purpose{crawlers.Training, crawlers.AISearch, crawlers.AIInput}}}},
	// Content-Signal and Content-Usage for policies: in a group of their own,
	{"policy-spec", Input{AI: aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes}}},
	{"policy-all-no", Input{AI: aipref.Policy{Train: aipref.No, Search: aipref.No, Input: aipref.No}}},
	{"policy-all-yes", Input{AI: aipref.Policy{Train: aipref.Yes, Search: aipref.Yes, Input: aipref.Yes}}},
	{"policy-train-only", Input{AI: aipref.Policy{Train: aipref.No}}},
	{"policy-search-no-input-yes", Input{AI: aipref.Policy{Search: aipref.No, Input: aipref.Yes}}},
	// input has no aipref label: Content-Signal alone carries it, and no Content-Usage line is written.
	{"policy-input-only", Input{AI: aipref.Policy{Input: aipref.No}}},
	// or in the first config group that names "*".
	{"policy-in-star-group", Input{AI: aipref.Policy{Train: aipref.No, Input: aipref.No}, Groups: []Group{
		{Agents: []string{"Googlebot"}, Disallow: []string{"/nogoogle/"}},
		{Agents: []string{"*", "otherbot"}, Disallow: []string{"/private/"}, Allow: []string{"/private/public.html"}},
		{Agents: []string{"*"}, Disallow: []string{"/second-star-group/"}},
	}}},
	// Groups as written, paths percent-encoded; Applebot and Twitterbot only when named.
	{"groups", Input{Groups: []Group{
		{Agents: []string{"Applebot", "Twitterbot"}, Disallow: []string{"/"}},
		{Agents: []string{"*"}, Disallow: []string{"/my files/", "/résumé.pdf", "/a#b", "/100%", "/ok%20already", "/*.pdf$"}, Allow: []string{"/my files/public/"}},
	}}},
	// ai.placement: headers leaves the preference lines out of robots.txt (site auditors such as
	// Lighthouse report them as unknown directives); the block groups stay. A policy of
	// preferences alone then asks nothing of robots.txt.
	{"placement-headers", Input{Groups: specGroups, AI: aipref.Policy{Train: aipref.No, Search: aipref.Yes,
		Block: []crawlers.Purpose{crawlers.AIInput}, Placement: aipref.Headers}}},
	{"placement-headers-only", Input{AI: aipref.Policy{Train: aipref.No, Search: aipref.Yes, Placement: aipref.Headers}}},
	{"placement-robots-txt", Input{AI: aipref.Policy{Train: aipref.No, Search: aipref.Yes, Placement: aipref.RobotsTxt}}},
	// ai.reserve: the reservation statement, as comments, above the Content-Signal line, naming
	// only the uses said no to; with placement: headers, in a paragraph of its own.
	{"reserve", Input{Groups: specGroups, AI: aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.No, Reserve: true}}},
	{"reserve-own-group", Input{AI: aipref.Policy{Train: aipref.No, Reserve: true}}},
	{"reserve-headers", Input{AI: aipref.Policy{Train: aipref.No, Search: aipref.Yes, Placement: aipref.Headers, Reserve: true}}},
	// Nothing said no to: nothing to reserve, and no statement.
	{"reserve-nothing", Input{AI: aipref.Policy{Train: aipref.Yes, Reserve: true}}},
	// Sitemaps under a base URL with a path, each once.
	{"sitemaps", Input{Sitemaps: []string{"/sitemap.xml", "/en/sitemap.xml", "/sitemap.xml", "/new maps/a.xml"}, BaseURL: "https://example.com/blog/"}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			existing, err := os.ReadFile(filepath.Join("testdata", tc.name+".input"))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			b, err := Render(tc.in)
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			got, err := Merge(existing, b)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".golden", got)
			if again, err := Merge(got, b); err != nil || !bytes.Equal(again, got) {
				t.Errorf("merging the same block again changed the file:\n%s", again)
			}
			checkGroupsEnd(t, b.Text)
			checkRules(t, b)
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testtool.Golden(t, filepath.Join("testdata", name), got, *update)
}

// checkGroupsEnd checks that every run of User-agent lines in text is
// followed by an Allow or Disallow line before the next User-agent line:
// Google's parser ends a group only at a User-agent line after a rule, so a
// group without one would merge with the next.
func checkGroupsEnd(t *testing.T, text []byte) {
	t.Helper()
	open, hasRule, lastUA := false, false, false
	for i, l := range strings.Split(string(text), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, _, _ := strings.Cut(l, ":")
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "user-agent":
			if open && !hasRule && !lastUA {
				t.Errorf("line %d: a User-agent line follows a group with lines but no Allow or Disallow", i+1)
			}
			if !open || hasRule {
				open, hasRule = true, false
			}
			lastUA = true
			continue
		case "allow", "disallow":
			if !open {
				t.Errorf("line %d: a rule outside any group", i+1)
			}
			hasRule = true
		}
		lastUA = false
	}
	if open && !hasRule {
		t.Errorf("the block ends in a group with no Allow or Disallow")
	}
}

// checkRules checks that Block.Rules and the signal lines point at the lines they describe.
func checkRules(t *testing.T, b *Block) {
	t.Helper()
	lines := strings.Split(string(b.Text), "\n")
	for _, r := range b.Rules {
		want := "Disallow:"
		if r.Allow {
			want = "Allow:"
		}
		if r.Path != "" {
			want += " " + r.Path
		}
		if r.Line < 1 || r.Line > len(lines) || lines[r.Line-1] != want {
			t.Errorf("rule %+v: line %d is not %q", r, r.Line, want)
		}
	}
	for _, l := range []struct {
		n      int
		prefix string
	}{{b.SignalLine, "Content-Signal: "}, {b.UsageLine, "Content-Usage: "}} {
		if l.n > 0 && !strings.HasPrefix(lines[l.n-1], l.prefix) {
			t.Errorf("line %d is %q, want %s...", l.n, lines[l.n-1], l.prefix)
		}
	}
}

func TestRules(t *testing.T) {
	b, err := Render(Input{Groups: specGroups, AI: specPolicy})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range b.Rules {
		got = append(got, fmt.Sprintf("%d %v allow=%v %q group=%d %s", r.Line, r.Agents, r.Allow, r.Path, r.Group, r.Crawler))
	}
	for _, want := range []string{
		`[*] allow=false "/search/" group=0 `,
		`[GPTBot] allow=false "/" group=-1 GPTBot`,
		`[Google-Extended] allow=false "/" group=-1 Google-Extended`,
		`[Applebot-Extended] allow=false "/" group=-1 Applebot-Extended`,
	} {
		found := false
		for _, g := range got {
			if strings.HasSuffix(g, want) || strings.Contains(g, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("Rules lack %s; got\n%s", want, strings.Join(got, "\n"))
		}
	}
	if b.SignalLine == 0 || b.UsageLine != b.SignalLine+1 {
		t.Errorf("SignalLine %d, UsageLine %d: want both, one after the other", b.SignalLine, b.UsageLine)
	}
	for _, r := range b.Rules {
		if r.Crawler == "Googlebot" || r.Crawler == "Applebot" || r.Crawler == "facebookexternalhit" {
			t.Errorf("ai.block training blocked %s", r.Crawler)
		}
	}
}

func TestRenderEmpty(t *testing.T) {
	b, err := Render(Input{AI: aipref.Policy{Meta: true}})
	if err != nil || len(b.Text) != 0 {
		t.Errorf("meta alone: Render = %q, %v; want an empty block (meta writes no robots.txt line)", b.Text, err)
	}
	if got, err := Merge(nil, b); err != nil || len(got) != 0 {
		t.Errorf("an empty block created a robots.txt: %q", got)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		in   Input
		line int
		want string
	}{
		{"sitemaps without base URL", Input{Sitemaps: []string{"/sitemap.xml"}, SitemapsLine: 6}, 6,
			"robots_txt: sitemaps: sitemaps need the site's absolute base URL"},
		{"sitemaps with a relative base URL", Input{Sitemaps: []string{"/sitemap.xml"}, BaseURL: "/", SitemapsLine: 6}, 6,
			`robots_txt: sitemaps: sitemaps need the site's absolute base URL (Hugo baseURL, Jekyll url) for their Sitemap: lines; "/" is not an absolute http or https URL`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Render(tc.in)
			var e *Error
			if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Render: error %v, want an *Error containing %q", err, tc.want)
			}
			if e.Line != tc.line {
				t.Errorf("Error.Line = %d, want %d", e.Line, tc.line)
			}
		})
	}
	_, err := Render(Input{Sitemaps: []string{"/s.xml"}})
	if !errors.Is(err, ErrNoBaseURL) {
		t.Errorf("sitemaps without a base URL: %v, want ErrNoBaseURL", err)
	}
	if got := problem.CodeOf(err); got != problem.SitemapsNeedBaseURL {
		t.Errorf("sitemaps without a base URL: code %s, want %s", got, problem.SitemapsNeedBaseURL)
	}
}

// TestListed: a Sitemap: URL the rest of robots.txt already lists is not written again, and a block
// that would hold nothing else is not written at all.
func TestListed(t *testing.T) {
	in := Input{Sitemaps: []string{"/sitemap.xml", "/en/sitemap.xml"}, BaseURL: "https://example.com/",
		Listed: []string{"https://example.com/sitemap.xml"}}
	b, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://example.com/en/sitemap.xml"}; fmt.Sprint(b.Sitemaps) != fmt.Sprint(want) {
		t.Errorf("Sitemaps = %q, want %q", b.Sitemaps, want)
	}
	if bytes.Contains(b.Text, []byte("Sitemap: https://example.com/sitemap.xml\n")) {
		t.Errorf("a listed sitemap was written again:\n%s", b.Text)
	}
	in.Listed = append(in.Listed, "https://example.com/en/sitemap.xml")
	if b, err := Render(in); err != nil || len(b.Text) != 0 {
		t.Errorf("every sitemap listed: Render = %q, %v; want an empty block", b.Text, err)
	}
}

// TestRenderEscapes: rule paths are written as robotstxt.EscapePattern writes them, so that a
// crawler's request for the path matches the line.
func TestRenderEscapes(t *testing.T) {
	b, err := Render(Input{Groups: []Group{{Agents: []string{"*"}, Disallow: []string{"/a b/#x"}, Allow: []string{"/café/"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nDisallow: /a%20b/%23x\n", "\nAllow: /caf%C3%A9/\n"} {
		if !strings.Contains(string(b.Text), want) {
			t.Errorf("block lacks %q:\n%s", want, b.Text)
		}
	}
	checkRules(t, b)
}

// FuzzRender: whatever robots_txt and ai hold, config refuses them or Render
// writes a block whose groups all end in a rule, whose lines are the ones it
// reports, and which merges in once. Render does not check the groups
// itself (config does, when it reads them): the config is read as a build
// reads it.
func FuzzRender(f *testing.F) {
	f.Add("*", "/search/", "/", true)
	f.Add("GPTBot", "/a b/#c", "", false)
	f.Add("googlebto", "private", "/x\n", true)
	f.Add("", "", "", false)
	f.Add("bot\nUser-agent: *", "/", "", false)
	f.Fuzz(func(t *testing.T, agent, disallow, allow string, signals bool) {
		g := map[string]any{"agents": []string{agent}}
		if disallow != "" {
			g["disallow"] = []string{disallow}
		}
		if allow != "" {
			g["allow"] = []string{allow}
		}
		cfg := map[string]any{"robots_txt": map[string]any{"groups": []any{g}}}
		if signals {
			cfg["ai"] = map[string]any{"train": "no", "block": []string{"ai-search"}}
		}
		src, err := json.Marshal(cfg)
		if err != nil {
			t.Skip(err)
		}
		c, err := config.Parse("robotsmith.json", src)
		if err != nil {
			return // refused where it is read
		}
		in := Input{AI: c.AI}
		for _, g := range c.RobotsTxt.Groups {
			in.Groups = append(in.Groups, Group{Agents: g.Agents, Disallow: g.Disallow, Allow: g.Allow})
		}
		b, err := Render(in)
		if err != nil {
			t.Fatalf("a config that loaded does not render: %v", err)
		}
		checkGroupsEnd(t, b.Text)
		checkRules(t, b)
		out, err := Merge([]byte("User-agent: *\nDisallow: /x\n"), b)
		if n := len(markers.Find(out)); err != nil || n != 1 {
			t.Fatalf("merged file has %d blocks (%v)", n, err)
		}
	})
}

// TestPlacementAndReserve: the preference lines go into robots.txt only when the policy's
// placement writes them there (aipref.Policy.InRobotsTxt), and the reservation statement, when
// ai.reserve asks for it, is comment lines above the Content-Signal line.
func TestPlacementAndReserve(t *testing.T) {
	pol := func(pl aipref.Placement, reserve bool) aipref.Policy {
		return aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes, Placement: pl, Reserve: reserve}
	}
	tests := []struct {
		desc      string
		in        Input
		signals   bool // Content-Signal and Content-Usage lines written
		reserve   bool // the reservation written
		wantEmpty bool
	}{
		{"both", Input{AI: pol(aipref.Both, false)}, true, false, false},
		{"robots.txt", Input{AI: pol(aipref.RobotsTxt, false)}, true, false, false},
		{"headers, preferences alone", Input{AI: pol(aipref.Headers, false)}, false, false, true},
		{"headers with groups", Input{Groups: specGroups, AI: pol(aipref.Headers, false)}, false, false, false},
		{"both, reserved", Input{Groups: specGroups, AI: pol(aipref.Both, true)}, true, true, false},
		{"headers, reserved", Input{AI: pol(aipref.Headers, true)}, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.in.Empty(); got != tc.wantEmpty {
				t.Errorf("Empty: got %v, want %v", got, tc.wantEmpty)
			}
			b, err := Render(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b.Text)
			for _, d := range []string{"\nContent-Signal: ", "\nContent-Usage: "} {
				if got := strings.Contains(text, d); got != tc.signals {
					t.Errorf("%q written: got %v, want %v:\n%s", strings.TrimSpace(d), got, tc.signals, text)
				}
			}
			if (b.SignalLine > 0) != tc.signals {
				t.Errorf("SignalLine %d, want one: %v", b.SignalLine, tc.signals)
			}
			at := strings.Index(text, "# Reservation of rights: ")
			if (at >= 0) != tc.reserve {
				t.Fatalf("reservation written: got %v, want %v:\n%s", at >= 0, tc.reserve, text)
			}
			if tc.reserve && tc.signals && at > strings.Index(text, "\nContent-Signal: ") {
				t.Errorf("the reservation is not above the Content-Signal line:\n%s", text)
			}
			if tc.reserve {
				for _, l := range tc.in.AI.Reservation() {
					if !strings.Contains(text, "# "+l+"\n") {
						t.Errorf("reservation line %q not written as a comment:\n%s", l, text)
					}
				}
			}
		})
	}
}
