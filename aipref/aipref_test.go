package aipref

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestSignals(t *testing.T) {
	for _, tc := range []struct {
		desc          string
		p             Policy
		signal, usage string
	}{
		// SPEC §9's example policy and its Content-Signal line.
		{"SPEC example", Policy{Train: No, Search: Yes, Input: Yes},
			"search=yes, ai-input=yes, ai-train=no", "train-ai=n, search=y"},
		// draft-ietf-aipref-attach-05 §1.2's example header: Content-Usage: train-ai=n.
		{"training only", Policy{Train: No}, "ai-train=no", "train-ai=n"},
		{"all no", Policy{Train: No, Search: No, Input: No},
			"search=no, ai-input=no, ai-train=no", "train-ai=n, search=n"},
		{"all yes", Policy{Train: Yes, Search: Yes, Input: Yes},
			"search=yes, ai-input=yes, ai-train=yes", "train-ai=y, search=y"},
		{"input only: no aipref label", Policy{Input: No}, "ai-input=no", ""},
		{"nothing stated", Policy{Meta: true, Block: []crawlers.Purpose{crawlers.Training}}, "", ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.p.ContentSignal(); got != tc.signal {
				t.Errorf("ContentSignal() = %q, want %q", got, tc.signal)
			}
			if got := tc.p.ContentUsage(); got != tc.usage {
				t.Errorf("ContentUsage() = %q, want %q", got, tc.usage)
			}
			if got := tc.p.States(); got != (tc.signal != "") {
				t.Errorf("States() = %v", got)
			}
		})
	}
}

// TestEveryPolicy writes the Content-Signal and Content-Usage of all 27
// combinations of train, search and input to a golden file, and checks
// each Content-Usage value against the vocabulary's syntax: a Dictionary of
// lower-case labels of the draft in force with the tokens y or n.
func TestEveryPolicy(t *testing.T) {
	item := regexp.MustCompile(`^(train-ai|search)=[yn]$`)
	signal := regexp.MustCompile(`^(search|ai-input|ai-train)=(yes|no)$`)
	var b strings.Builder
	prefs := []Pref{Unset, Yes, No}
	for _, tr := range prefs {
		for _, se := range prefs {
			for _, in := range prefs {
				p := Policy{Train: tr, Search: se, Input: in}
				fmt.Fprintf(&b, "train=%-3s search=%-3s input=%-3s | Content-Signal: %s | Content-Usage: %s\n",
					tr, se, in, p.ContentSignal(), p.ContentUsage())
				for _, part := range strings.Split(p.ContentUsage(), ", ") {
					if part != "" && !item.MatchString(part) {
						t.Errorf("%+v: Content-Usage item %q is not a label of %s with y or n", p, part, VocabDraft)
					}
				}
				for _, part := range strings.Split(p.ContentSignal(), ", ") {
					if part != "" && !signal.MatchString(part) {
						t.Errorf("%+v: Content-Signal item %q", p, part)
					}
				}
			}
		}
	}
	golden(t, "policies.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	testtool.Golden(t, filepath.Join("testdata", name), []byte(got), *update)
}

func TestParsePref(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Pref
		err  bool
	}{
		{"yes", Yes, false}, {" No ", No, false}, {"YES", Yes, false},
		{"y", Unset, true}, {"n", Unset, true}, {"true", Unset, true}, {"", Unset, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParsePref(tc.in)
			if got != tc.want || (err != nil) != tc.err {
				t.Errorf("ParsePref(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestParseCategory(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []crawlers.Purpose
		err  string
	}{
		{"training", []crawlers.Purpose{crawlers.Training}, ""},
		{" AI-Search ", []crawlers.Purpose{crawlers.AISearch}, ""},
		{"ai-input", []crawlers.Purpose{crawlers.AIInput}, ""},
		{"all-ai", []crawlers.Purpose{crawlers.Training, crawlers.AISearch, crawlers.AIInput}, ""},
		{"search-engine", nil, `"search-engine" is not a crawler category (known: training, ai-search, ai-input, all-ai)`},
		{"link-preview", nil, "is not a crawler category"},
		{"train-genai", nil, `"train-genai" was a label of draft-ietf-aipref-vocab -02 and -03 (July to September 2025) and no version in force defines it (robotsmith follows draft-ietf-aipref-vocab-08`},
		{"ai-train", nil, "ai-train is the Content-Signal name that train: writes"},
		{"trainig", nil, "is not a crawler category"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseCategory(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("ParseCategory(%q): error %v, want one containing %q", tc.in, err, tc.err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("ParseCategory(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		label, want string
	}{
		{"train-ai", "train-ai is the draft-ietf-aipref-vocab-08 label that train: writes"},
		{"ai-use", `"ai-use" was a label of draft-ietf-aipref-vocab -02 (July 2025)`},
		{"ai-input", "ai-input is the Content-Signal name that input: writes"},
		{"bots", `"bots" was a label of draft-ietf-aipref-vocab -03 and -04`},
		{"ai-output", `"ai-output" was a label of draft-ietf-aipref-vocab -04`},
		{"all", `"all" was a label of draft-ietf-aipref-vocab -02`},
		{"genai", `"genai" was a label of draft-ietf-aipref-vocab -01`},
		{"whatever", ""},
	} {
		t.Run(tc.label, func(t *testing.T) {
			got, ok := Label(tc.label)
			if ok != (tc.want != "") || !strings.HasPrefix(got, tc.want) {
				t.Errorf("Label(%q) = %q, %v; want %q", tc.label, got, ok, tc.want)
			}
		})
	}
}

func TestBlocked(t *testing.T) {
	cat := crawlers.Default()
	var p Policy
	if got := p.Blocked(cat); got != nil {
		t.Errorf("no block: Blocked = %v, want nil", got)
	}
	p.AddBlock(crawlers.Training)
	p.AddBlock(crawlers.Training, crawlers.AIInput)
	if fmt.Sprint(p.Block) != "[training ai-input]" {
		t.Errorf("AddBlock: Block = %v, want [training ai-input]", p.Block)
	}
	got := p.Blocked(cat)
	if len(got) != len(cat.Block(crawlers.Training, crawlers.AIInput)) {
		t.Errorf("Blocked = %d crawlers, want the catalogue's %d", len(got), len(cat.Block(crawlers.Training, crawlers.AIInput)))
	}
	// Google-Extended is both training and ai-input: listed once.
	n := 0
	for _, c := range got {
		if c.Name() == "Google-Extended" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("Google-Extended listed %d times, want once", n)
	}
}

func TestMetaValues(t *testing.T) {
	if got := (Policy{}).MetaValues(); got != nil {
		t.Errorf("without meta: %v", got)
	}
	if got := (Policy{Meta: true}).MetaValues(); fmt.Sprint(got) != "[noai noimageai]" {
		t.Errorf("with meta: %v, want [noai noimageai]", got)
	}
}

func TestVersions(t *testing.T) {
	got := Versions()
	for _, want := range []string{VocabDraft, VocabDate, AttachDraft, AttachDate, SignalsPolicyURL} {
		if !strings.Contains(got, want) {
			t.Errorf("Versions() = %q lacks %q", got, want)
		}
	}
}

// combineCases are TestCombine's table and FuzzCombine's seeds.
var combineCases = []struct {
	desc string
	in   []string
	want string
}{
	{"one statement", []string{"train-ai=n, search=y"}, "train-ai=n, search=y"},
	{"any n wins", []string{"train-ai=y, search=y", "search=n"}, "train-ai=y, search=n"},
	{"n is not undone by a later y", []string{"train-ai=n", "train-ai=y"}, "train-ai=n"},
	{"labels in the order first seen", []string{"search=y", "train-ai=n, search=y"}, "search=y, train-ai=n"},
	{"a repeated label keeps its last value within a statement", []string{"train-ai=n, train-ai=y"}, "train-ai=y"},
	{"parameters dropped", []string{"train-ai=n;x=1"}, "train-ai=n"},
	{"what is not y or n is ignored", []string{"train-ai=maybe, search, =y, bots=?1", "search=n"}, "search=n"},
	{"nothing", nil, ""},
}

func TestCombine(t *testing.T) {
	for _, tc := range combineCases {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Combine(tc.in...); got != tc.want {
				t.Errorf("Combine(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzCombine: whatever two statements hold, Combine's result reads back as itself, holds each
// label once, and says n for every label either statement says n for.
func FuzzCombine(f *testing.F) {
	for _, tc := range combineCases {
		in := append(slices.Clone(tc.in), "", "")
		f.Add(in[0], in[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := Combine(a, b)
		if again := Combine(got); again != got {
			t.Fatalf("Combine(%q, %q) = %q, which reads back as %q", a, b, got, again)
		}
		labels := map[string]bool{}
		for _, m := range strings.Split(got, ", ") {
			k, _, _ := strings.Cut(m, "=")
			if got != "" && labels[k] {
				t.Fatalf("Combine(%q, %q) = %q holds %s twice", a, b, got, k)
			}
			labels[k] = true
		}
		for _, s := range []string{a, b} {
			last := map[string]string{}
			for _, m := range strings.Split(s, ",") {
				m, _, _ = strings.Cut(m, ";")
				if k, v, ok := strings.Cut(strings.TrimSpace(m), "="); ok && (strings.TrimSpace(v) == "y" || strings.TrimSpace(v) == "n") && strings.TrimSpace(k) != "" {
					last[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			for k, v := range last {
				if v == "n" && !strings.Contains(", "+got+", ", ", "+k+"=n, ") {
					t.Fatalf("Combine(%q, %q) = %q: %s=n of %q lost", a, b, got, k, s)
				}
			}
		}
	})
}

func TestPlacement(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Placement
		wantErr string
	}{
		{"both", Both, ""},
		{" Robots.TXT ", RobotsTxt, ""},
		{"headers", Headers, ""},
		{"header", Both, `"header" is not a placement (known: both, robots.txt, headers)`},
		{"", Both, `"" is not a placement`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParsePlacement(tc.in)
			if got != tc.want || (err == nil) != (tc.wantErr == "") || (err != nil && !strings.HasPrefix(err.Error(), tc.wantErr)) {
				t.Errorf("ParsePlacement(%q) = %v, %v; want %v, %q", tc.in, got, err, tc.want, tc.wantErr)
			}
			if err == nil {
				if back, _ := ParsePlacement(got.String()); back != got {
					t.Errorf("%v.String() = %q reads back as %v", got, got.String(), back)
				}
			}
		})
	}
	// Which signals each placement writes.
	for _, tc := range []struct {
		desc          string
		p             Policy
		robots, heads bool
	}{
		{"both (the zero value)", Policy{Train: No}, true, true},
		{"robots.txt", Policy{Train: No, Placement: RobotsTxt}, true, false},
		{"headers", Policy{Train: No, Placement: Headers}, false, true},
		{"nothing stated writes nothing", Policy{Placement: Both}, false, false},
		{"input alone has no header", Policy{Input: No}, true, false},
		{"input alone in headers is written nowhere", Policy{Input: No, Placement: Headers}, false, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.p.InRobotsTxt(); got != tc.robots {
				t.Errorf("InRobotsTxt() = %v, want %v", got, tc.robots)
			}
			if got := tc.p.InHeaders(); got != tc.heads {
				t.Errorf("InHeaders() = %v, want %v", got, tc.heads)
			}
			want := ""
			if tc.heads {
				want = tc.p.ContentUsage()
			}
			if got := tc.p.HeaderUsage(); got != want {
				t.Errorf("HeaderUsage() = %q, want %q", got, want)
			}
		})
	}
}

func TestConflicts(t *testing.T) {
	cat := crawlers.Default()
	type want struct {
		kind     ConflictKind
		line     int
		other    int
		crawlers string // names, space-separated; "" for none
		msg      string // a part of String()
	}
	training := []crawlers.Purpose{crawlers.Training}
	for _, tc := range []struct {
		desc string
		p    Policy
		want []want
	}{
		{
			// The case reported from a real site: SPEC §9's example policy. Google-Extended governs
			// training and grounding in Gemini (Google's common crawlers page); Amazonbot's index
			// also feeds Alexa answers that cite the site (Amazon's Amazonbot page).
			desc: "SPEC example: training blocked, search and input allowed",
			p:    Policy{Train: No, Search: Yes, Input: Yes, Block: training, BlockLine: 6, SearchLine: 4, InputLine: 5},
			want: []want{
				{BlockedUse, 6, 4, "Amazonbot", "block: training disallows Amazonbot (Amazon), which the crawler catalogue also lists for ai-search, and search: yes (line 4) allows ai-search"},
				{BlockedUse, 6, 5, "Google-Extended", "block: training disallows Google-Extended (Google), which the crawler catalogue also lists for ai-input, and input: yes (line 5) allows ai-input: the block withholds it from ai-input as well"},
			},
		},
		{
			desc: "input no: nothing contradicts",
			p:    Policy{Train: No, Search: No, Input: No, Block: training},
		},
		{
			desc: "unset is not yes",
			p:    Policy{Train: No, Block: training},
		},
		{
			desc: "a category the policy says yes to blocks all of its crawlers",
			p:    Policy{Input: Yes, Block: []crawlers.Purpose{crawlers.AIInput}},
			want: []want{{BlockedUse, 0, 0,
				"ChatGPT-User Claude-User Perplexity-User meta-externalfetcher MistralAI-User DuckAssistBot Amzn-User cohere-ai Google-Agent YandexAdditional Google-Extended",
				"block: ai-input disallows Google-Extended (Google), ChatGPT-User (OpenAI), Claude-User (Anthropic), Perplexity-User (Perplexity), meta-externalfetcher (Meta) and 6 more, which"}},
		},
		{
			desc: "a crawler blocked by two categories is reported under the first",
			p:    Policy{Train: Yes, Input: Yes, Block: []crawlers.Purpose{crawlers.AIInput, crawlers.Training}},
			want: []want{
				{BlockedUse, 0, 0, "Google-Extended", "block: ai-input disallows Google-Extended (Google), which the crawler catalogue also lists for training, and train: yes allows training"},
				{BlockedUse, 0, 0, "ChatGPT-User Claude-User Perplexity-User meta-externalfetcher MistralAI-User DuckAssistBot Amzn-User cohere-ai Google-Agent YandexAdditional Google-Extended", "ai-input"},
				{BlockedUse, 0, 0, "GPTBot ClaudeBot anthropic-ai Applebot-Extended CCBot Bytespider TikTokSpider meta-externalagent FacebookBot Amazonbot cohere-training-data-crawler DeepSeekBot PanguBot Timpibot AI2Bot Ai2Bot-Dolma Webzio-Extended Cotoyogi ICC-Crawler LAIONDownloader img2dataset", "block: training disallows GPTBot (OpenAI)"},
			},
		},
		{
			desc: "placement headers drops the input preference",
			p:    Policy{Train: No, Input: No, Placement: Headers, PlacementLine: 7, InputLine: 3},
			want: []want{{Unsaid, 7, 3, "", "placement: headers writes only the Content-Usage header, which has no label for ai-input, so input: no (line 3) is written nowhere"}},
		},
		{
			desc: "placement headers without input says everything",
			p:    Policy{Train: No, Search: Yes, Placement: Headers},
		},
		{
			desc: "reserve with nothing to reserve",
			p:    Policy{Train: Yes, Reserve: true, ReserveLine: 8},
			want: []want{{NothingReserved, 8, 0, "", "reserve: true, but train, search and input say no to nothing"}},
		},
		{
			desc: "reserve with something to reserve",
			p:    Policy{Train: No, Reserve: true},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := tc.p.Conflicts(cat)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d conflicts, want %d:\n%v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				g := got[i]
				var names []string
				for _, c := range g.Crawlers {
					names = append(names, c.Name())
				}
				slices.Sort(names)
				wantNames := strings.Fields(w.crawlers)
				slices.Sort(wantNames)
				if g.Kind != w.kind || g.Line != w.line || g.OtherLine != w.other || !slices.Equal(names, wantNames) {
					t.Errorf("conflict %d = %v lines %d,%d crawlers %v; want %v lines %d,%d crawlers %v",
						i, g.Kind, g.Line, g.OtherLine, names, w.kind, w.line, w.other, wantNames)
				}
				if !strings.Contains(g.String(), w.msg) {
					t.Errorf("conflict %d says:\n%s\nwant it to contain:\n%s", i, g.String(), w.msg)
				}
			}
		})
	}
}

// TestReservation writes the reservation statement of every policy that says no to something,
// under each placement, to a golden file, and checks what each says: every use the policy says
// no to and no other, the Directive's article, and the signals the placement writes.
func TestReservation(t *testing.T) {
	if got := (Policy{Train: No}).Reservation(); got != nil {
		t.Errorf("without reserve: %q, want nil", got)
	}
	if got := (Policy{Train: Yes, Search: Yes, Reserve: true}).Reservation(); got != nil {
		t.Errorf("nothing said no to: %q, want nil", got)
	}
	var b strings.Builder
	prefs := []Pref{Unset, Yes, No}
	for _, pl := range []Placement{Both, RobotsTxt, Headers} {
		for _, tr := range prefs {
			for _, se := range prefs {
				for _, in := range prefs {
					p := Policy{Train: tr, Search: se, Input: in, Placement: pl, Reserve: true}
					lines := p.Reservation()
					if len(p.reserved()) == 0 {
						if lines != nil {
							t.Errorf("%+v: a statement with nothing to reserve: %q", p, lines)
						}
						continue
					}
					fmt.Fprintf(&b, "placement=%s train=%s search=%s input=%s\n", pl, tr, se, in)
					for _, l := range lines {
						if len(l) > ReservationWidth {
							t.Errorf("%+v: line of %d characters: %q", p, len(l), l)
						}
						fmt.Fprintf(&b, "# %s\n", l)
					}
					b.WriteString("\n")
					text := strings.Join(lines, " ")
					for use, words := range uses {
						if got, want := strings.Contains(text, words), p.Pref(use) == No; got != want {
							t.Errorf("%+v: mentions %q: %v, want %v", p, words, got, want)
						}
					}
					for _, s := range []string{"Article 4(3) of Directive (EU) 2019/790", "expressly reserved"} {
						if !strings.Contains(text, s) {
							t.Errorf("%+v: %q does not say %q", p, text, s)
						}
					}
					if got := strings.Contains(text, "below"); got != p.InRobotsTxt() {
						t.Errorf("%+v: names robots.txt lines: %v, InRobotsTxt %v", p, got, p.InRobotsTxt())
					}
					if got := strings.Contains(text, "HTTP header"); got != p.InHeaders() {
						t.Errorf("%+v: names the header: %v, InHeaders %v", p, got, p.InHeaders())
					}
				}
			}
		}
	}
	golden(t, "reservations.golden", b.String())
}

// TestProblemCodes checks the codes of the values ParsePref and ParseCategory refuse.
func TestProblemCodes(t *testing.T) {
	for _, tc := range []struct {
		desc string
		err  error
		want problem.Code
	}{
		{"a preference", func() error { _, err := ParsePref("maybe"); return err }(), problem.AIPreferenceInvalid},
		{"a category", func() error { _, err := ParseCategory("search-engine"); return err }(), problem.AICategoryUnknown},
		{"a label as a category", func() error { _, err := ParseCategory("train-genai"); return err }(), problem.AICategoryUnknown},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := problem.CodeOf(tc.err); got != tc.want {
				t.Errorf("got code %s, want %s (%v)", got, tc.want, tc.err)
			}
		})
	}
}
