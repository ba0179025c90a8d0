package rules

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

const spec4Seps = "SPEC §4: spaces, semicolons and line breaks between known directives are read as separators too, with a warning"

// sepCases are values whose directives are separated otherwise than by commas, as real sites write
// them (a theme's `noindex nofollow`, a YAML block scalar), and the hard cases around them.
var sepCases = []struct {
	desc, source, in string
	want             []string
	warns            []string // substrings, one for each warning, in order
	err              string
}{
	{"spaces", spec4Seps, "noindex nofollow", []string{"noindex", "nofollow"},
		[]string{`directives separated by spaces are read as "noindex, nofollow"; separate them with commas`}, ""},
	{"semicolons", spec4Seps, "noindex; nofollow", []string{"noindex", "nofollow"},
		[]string{`directives separated by semicolons are read as "noindex, nofollow"`}, ""},
	{"a semicolon without spaces", spec4Seps, "noindex;nofollow", []string{"noindex", "nofollow"},
		[]string{"separated by semicolons"}, ""},
	{"a trailing semicolon", spec4Seps, "noindex;", []string{"noindex"}, []string{"separated by semicolons"}, ""},
	{"a YAML block scalar", spec4Seps + " (robots: | then one directive a line)", "noindex\nnofollow\n", []string{"noindex", "nofollow"},
		[]string{`directives separated by line breaks are read as "noindex, nofollow"`}, ""},
	{"tabs and upper case", spec4Seps, "NOINDEX\tNoFollow", []string{"noindex", "nofollow"}, []string{"separated by spaces"}, ""},
	{"a semicolon and a line break", spec4Seps, "noindex; nofollow\nnoarchive", []string{"noindex", "nofollow", "noarchive"},
		[]string{`directives separated by semicolons and line breaks are read as "noindex, nofollow, noarchive"`}, ""},
	{"every separator", spec4Seps, "noindex nofollow; noarchive\r\nnosnippet", []string{"noindex", "nofollow", "noarchive", "nosnippet"},
		[]string{`directives separated by spaces, semicolons and line breaks are read as "noindex, nofollow, noarchive, nosnippet"`}, ""},
	{"commas and spaces", spec4Seps, "noindex nofollow, noarchive", []string{"noindex", "nofollow", "noarchive"},
		[]string{`read as "noindex, nofollow, noarchive"`}, ""},
	{"none among others", spec4Seps, "none noarchive", []string{"noindex", "nofollow", "noarchive"}, []string{"separated by spaces"}, ""},
	{"a space after the colon is no separator", googleDoc + ": max-snippet: [number]", "max-snippet: 50", []string{"max-snippet:50"}, nil, ""},
	{"a space after the colon, then another directive", spec4Seps, "max-snippet: 50 noindex", []string{"max-snippet:50", "noindex"},
		[]string{`read as "max-snippet: 50, noindex"`}, ""},
	{"a colon standing apart", spec4Seps, "max-video-preview : 30 nosnippet", []string{"max-video-preview:30", "nosnippet"},
		[]string{"separated by spaces"}, ""},
	{"a date with spaces is one directive", rfc822, "unavailable_after: 25 Jun 2010 15:00:00 PST", []string{"unavailable_after:2010-06-25T23:00:00Z"}, nil, ""},
	{"a date with a comma after other directives", rfc850 + "; " + spec4Seps, "noindex unavailable_after: Friday, 25-Jun-10 15:00:00 PST",
		[]string{"noindex", "unavailable_after:2010-06-25T23:00:00Z"}, []string{`read as "noindex, unavailable_after: Friday, 25-Jun-10 15:00:00 PST"`}, ""},
	{"a date ends at the next directive", spec4Seps, "unavailable_after: 25 Jun 2010 15:00:00 PST noarchive",
		[]string{"unavailable_after:2010-06-25T23:00:00Z", "noarchive"}, []string{"separated by spaces"}, ""},
	{"a date ends at a semicolon", spec4Seps, "unavailable_after: 2027-01-31 10:00; max-snippet:0",
		[]string{"unavailable_after:2027-01-31T10:00:00Z", "max-snippet:0"}, []string{"separated by semicolons"}, ""},
	{"a date ends at a line break", spec4Seps, "unavailable_after: 2027-01-31\nnoindex",
		[]string{"unavailable_after:2027-01-31T00:00:00Z", "noindex"}, []string{"separated by line breaks"}, ""},
	{"an unknown word among known ones keeps them", spec4Seps + "; a value is never dropped in a way that leaves a page more public", "noindex foo",
		[]string{"noindex"}, []string{`unknown directive "foo"; dropped`, `read as "noindex, foo"`}, ""},
	{"an obsolete word among known ones", spec4Seps, "noodp noindex",
		[]string{"noindex"}, []string{`obsolete directive "noodp"`, "separated by spaces"}, ""},
	{"a misspelling among known ones stays an error", "SPEC §4: within two edits of a known one is an error", "noindex nofolow",
		[]string{"noindex"}, []string{"separated by spaces"}, `unknown directive "nofolow" (did you mean "nofollow"?)`},
	{"misspellings alone are each an error", "SPEC §4: within two edits of a known one is an error", "noindx nofolow",
		nil, []string{"separated by spaces"}, `unknown directive "noindx" (did you mean "noindex"?)`},
	{"a malformed directive among known ones", "SPEC §4: a malformed value is an error", "noindex max-snippet:abc",
		[]string{"noindex"}, []string{"separated by spaces"}, `max-snippet: "abc" is not an integer`},
	{"a misspelling written with a space is one", "SPEC §4 example no-index", "no index",
		nil, nil, `unknown directive "no index" (did you mean "noindex"?)`},
	{"unknown words alone stay one unknown directive", "SPEC §4: other unknown values are warnings", "foo bar",
		nil, []string{`unknown directive "foo bar"; dropped`}, ""},
	{"a letter whose lower case is longer", "strings.ToLower(\"Ⱥ\") is a byte longer: a date's weekday is looked for without it",
		strings.Repeat("Ⱥ", 20) + " unavailable_after: Friday, 25-Jun-10 15:00:00 PST", []string{"unavailable_after:2010-06-25T23:00:00Z"},
		[]string{"separated by spaces"}, `holds characters outside ASCII`},
	{"an agent prefix stays one item", "SPEC §6: agent prefixes belong to headers, not meta values", "googlebot: noindex",
		nil, []string{`unknown directive "googlebot"`}, ""},
}

func TestParseValueSeparators(t *testing.T) {
	for _, tc := range sepCases {
		t.Run(tc.desc, func(t *testing.T) {
			got, warns, err := ParseValue(tc.in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseValue(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if len(warns) != len(tc.warns) {
				t.Errorf("ParseValue(%q) warnings: got %q, want %d like %q", tc.in, warns, len(tc.warns), tc.warns)
			} else {
				for i, w := range tc.warns {
					if !strings.Contains(warns[i], w) {
						t.Errorf("warning %d: got %q, want it to contain %q", i+1, warns[i], w)
					}
				}
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error: got %v, want it to contain %q", err, tc.err)
			case tc.err != "" && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrMisspelt):
				t.Errorf("error %v wraps neither ErrMalformed nor ErrMisspelt", err)
			}
		})
	}
}

// TestSeparatorsEverywhere: the value is read the same wherever it is written, a page's front
// matter, the config's rules and defaults, a theme's tag in the page, and the warning names the
// source's file:line (SPEC §4).
func TestSeparatorsEverywhere(t *testing.T) {
	ruleSrc := Source{Kind: FromRule, File: "robotsmith.yaml", Line: 4, Rule: 1}
	defSrc := Source{Kind: FromDefault, File: "robotsmith.yaml", Line: 2}
	for _, tc := range []struct {
		desc  string
		cfg   Config
		item  Item
		class string
		want  string // the robots tag
		warn  string
	}{
		{"front matter", Config{}, Item{Path: "/a/", Inputs: robots("noindex nofollow")}, "noindex", "noindex, nofollow",
			`content/blog/a.md:3: front matter robots: directives separated by spaces are read as "noindex, nofollow"`},
		{"a config rule", Config{Rules: []Rule{{Paths: []string{"/a/"}, Source: ruleSrc,
			Values: []Input{{Agent: "robots", Value: "noindex nofollow", Source: ruleSrc}}}}},
			Item{Path: "/a/"}, "noindex", "noindex, nofollow", `robotsmith.yaml:4: rule 1: directives separated by spaces`},
		{"the config's defaults", Config{Defaults: []Input{{Agent: "robots", Value: "noindex;\nnofollow", Source: defSrc}}},
			Item{Path: "/a/"}, "noindex", "noindex, nofollow", `robotsmith.yaml:2: default: directives separated by semicolons and line breaks`},
		{"a theme's tag", Config{}, Item{Path: "/a/", Inputs: []Input{tag("robots", "noindex nofollow")}}, "noindex", "noindex, nofollow",
			`public/a/index.html:7: tag <meta name="robots">: directives separated by spaces`},
		{"a theme's tag with a misspelling keeps the rest", Config{}, Item{Path: "/a/", Inputs: []Input{tag("robots", "noindex nofolow")}},
			"noindex", "noindex, follow", `unknown directive "nofolow" (did you mean "nofollow"?); dropped`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r, err := New(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			d, warns, err := r.Decide(tc.item)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Class.String(); got != tc.class {
				t.Errorf("class: got %s, want %s", got, tc.class)
			}
			if got := d.Directives().Tags; len(got) == 0 || got[0].Content != tc.want {
				t.Errorf("tags: got %v, want robots %q", got, tc.want)
			}
			var all []string
			for _, w := range append(r.Warnings(), warns...) {
				all = append(all, w.String())
			}
			if !slicesContain(all, tc.warn) {
				t.Errorf("warnings: got %q, want one containing %q", all, tc.warn)
			}
		})
	}
}

func slicesContain(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// nines finds the runs of a long value's digits in a message.
var nines = regexp.MustCompile(`9{20,}`)

// TestMessagesQuoteOnce: whatever the size of a value, a message quotes at most about 80
// characters of it, once (SPEC §10), wherever it was written.
func TestMessagesQuoteOnce(t *testing.T) {
	long := "max-snippet:" + strings.Repeat("9", 10000)
	ruleSrc := Source{Kind: FromRule, File: "robotsmith.yaml", Line: 4, Rule: 1}
	for _, tc := range []struct {
		desc  string
		cfg   Config
		item  Item
		warns bool // the message is a warning, not an error
	}{
		{"front matter", Config{}, Item{Path: "/a/", Inputs: robots(long)}, false},
		{"front matter, among others", Config{}, Item{Path: "/a/", Inputs: robots("noindex, " + long)}, false},
		{"front matter, separated by a space", Config{}, Item{Path: "/a/", Inputs: robots("noindex " + long)}, false},
		{"a theme's tag", Config{}, Item{Path: "/a/", Inputs: []Input{tag("robots", long)}}, false},
		{"a config rule", Config{Rules: []Rule{{Paths: []string{"/a/"}, Source: ruleSrc,
			Values: []Input{{Agent: "robots", Value: long, Source: ruleSrc}}}}}, Item{Path: "/a/"}, false},
		{"the config's defaults", Config{Defaults: []Input{{Agent: "robots", Value: long, Source: ruleSrc}}}, Item{Path: "/a/"}, false},
		{"a long date", Config{}, Item{Path: "/a/", Inputs: robots("unavailable_after: 2027-01-" + strings.Repeat("9", 10000))}, false},
		{"a long date with a long zone", Config{}, Item{Path: "/a/", Inputs: robots("unavailable_after: 25 Jun 2010 15:00 Z" + strings.Repeat("9", 10000))}, false},
		{"a long flag value", Config{}, Item{Path: "/a/", Inputs: robots("noindex:" + strings.Repeat("9", 10000))}, false},
		{"a long image preview", Config{}, Item{Path: "/a/", Inputs: robots("max-image-preview:" + strings.Repeat("9", 10000))}, false},
		{"a long misspelling", Config{}, Item{Path: "/a/", Inputs: robots("noіndex" + strings.Repeat("9", 10000))}, false},
		{"a long unknown directive", Config{}, Item{Path: "/a/", Inputs: robots("noindex, x" + strings.Repeat("9", 10000))}, true},
		{"a long unknown word among known ones", Config{}, Item{Path: "/a/", Inputs: robots("noindex x" + strings.Repeat("9", 10000))}, true},
		{"a long agent name", Config{}, Item{Path: "/a/", Inputs: []Input{fm("gооglebot"+strings.Repeat("9", 10000), "noindex")}}, false},
		{"a long bad glob", Config{Rules: []Rule{{Paths: []string{"/[" + strings.Repeat("9", 10000)}, Source: ruleSrc}}}, Item{Path: "/a/"}, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var msgs []string
			r, err := New(tc.cfg)
			if err == nil {
				var ws []Warning
				_, ws, err = r.Decide(tc.item)
				for _, w := range append(r.Warnings(), ws...) {
					msgs = append(msgs, w.String())
				}
			}
			if tc.warns {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
			} else {
				if err == nil {
					t.Fatalf("got no error, want one about the value")
				}
				msgs = append(msgs, strings.Split(err.Error(), "\n")...)
			}
			for _, m := range msgs {
				if len(m) > 300 {
					t.Errorf("a message of %d bytes, want at most 300: %.400s", len(m), m)
				}
				if n := len(nines.FindAllString(m, -1)); n > 1 {
					t.Errorf("the value is quoted %d times, want once: %s", n, m)
				}
			}
			if !slicesContain(msgs, strings.Repeat("9", 20)) {
				t.Errorf("no message quotes the value: %q", msgs)
			}
		})
	}
}

// TestProblemsPerValue: a value of thousands of unknown or misspelt words reports the first few
// and a count, not a line each (SPEC §10: no input makes output out of proportion to its size).
func TestProblemsPerValue(t *testing.T) {
	for _, tc := range []struct {
		desc, in    string
		warns, errs int
	}{
		{"unknown words", "noindex " + strings.Repeat("zzzzzzzz ", 5000), maxValueProblems + 2, 0},
		{"unknown directives", "noindex, " + strings.Repeat("zzzzzzzz, ", 5000), maxValueProblems + 1, 0},
		{"misspellings", strings.Repeat("noindx ", 5000), 1, maxValueProblems + 1},
		{"malformed directives", strings.Repeat("max-snippet:x, ", 5000), 0, maxValueProblems + 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, warns, err := ParseValue(tc.in)
			if len(warns) != tc.warns {
				t.Errorf("%d warnings, want %d: %.300q", len(warns), tc.warns, warns)
			}
			errs := 0
			if err != nil {
				errs = len(strings.Split(err.Error(), "\n"))
			}
			if errs != tc.errs {
				t.Errorf("%d errors, want %d: %.300v", errs, tc.errs, err)
			}
		})
	}
}
