package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

// countCase checks how Lines numbers lines and which it reads as directives. Origins are tests
// in Google's robots_test.cc and reporting_robots_test.cc (github.com/google/robotstxt).
type countCase struct {
	origin     string
	robots     string
	directives int // user-agent, allow, disallow and sitemap lines
	other      int // lines with a key Google does not read
	lastLine   int // the number of the last directive
	numLines   int // every line, the final (maybe empty) one included
}

var countCases = []countCase{
	{"ID_LinesNumbersAreCountedCorrectly unix", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n", 4, 0, 6, 7},
	{"ID_LinesNumbersAreCountedCorrectly dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", 4, 0, 6, 7},
	{"ID_LinesNumbersAreCountedCorrectly mac", "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r", 4, 0, 6, 7},
	{"ID_LinesNumbersAreCountedCorrectly no final newline", "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /", 4, 0, 6, 6},
	{"ID_LinesNumbersAreCountedCorrectly mixed", "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /", 4, 0, 6, 6},
	{"ID_UTF8ByteOrderMarkIsSkipped full", "\xEF\xBB\xBFUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, 2, 3},
	{"ID_UTF8ByteOrderMarkIsSkipped partial 2", "\xEF\xBBUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, 2, 3},
	{"ID_UTF8ByteOrderMarkIsSkipped partial 1", "\xEFUser-Agent: foo\nAllow: /AnyValue\n", 2, 0, 2, 3},
	{"ID_UTF8ByteOrderMarkIsSkipped broken", "\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n", 1, 1, 2, 3},
	{"ID_UTF8ByteOrderMarkIsSkipped middle", "User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n", 1, 1, 1, 3},
	{"LinesNumbersAreCountedCorrectly dos", "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n", 4, 0, 6, 7},
	// Ours: CR CR LF is two line ends, LF CR two as well.
	{"robots.cc Parse", "User-Agent: foo\r\r\nDisallow: /\n\rAllow: /x", 3, 0, 5, 5},
	{"robots.cc Parse", "", 0, 0, 0, 1},
	{"robots.cc Parse", "\xEF\xBB\xBF", 0, 0, 0, 1},
}

func TestLineCounting(t *testing.T) {
	for _, tc := range countCases {
		t.Run(tc.origin, func(t *testing.T) {
			var directives, other, last, num int
			for l := range Lines([]byte(tc.robots)) {
				num++
				if l.Num != num {
					t.Fatalf("line %d numbered %d", num, l.Num)
				}
				switch l.Kind {
				case UserAgent, Allow, Disallow, Sitemap:
					directives++
					last = l.Num
				case Other:
					other++
				}
			}
			if directives != tc.directives || other != tc.other || last != tc.lastLine || num != tc.numLines {
				t.Errorf("got %d directives, %d other, last on line %d, %d lines; want %d, %d, %d, %d",
					directives, other, last, num, tc.directives, tc.other, tc.lastLine, tc.numLines)
			}
			if f := Parse([]byte(tc.robots)); f.NumLines != tc.numLines {
				t.Errorf("Parse: NumLines %d, want %d", f.NumLines, tc.numLines)
			}
		})
	}
}

// TestLineMetadata follows reporting_robots_test.cc LinesNumbersAreCountedCorrectly, which checks
// what Google's parser reports for each line. Google's "unused" tags (noarchive and others it
// knows but ignores) are Other here, as are unknown keys.
func TestLineMetadata(t *testing.T) {
	const src = "User-Agent: foo\n" + // 1
		"Allow: /some/path\n" + // 2
		"User-Agent bar # no\n" + // 3
		"absolutely random line\n" + // 4
		"#so comment, much wow\n" + // 5
		"\n" + // 6
		"unicorns: /extinct\n" + // 7
		"noarchive: /some\n" + // 8
		"Disallow: /\n" + // 9
		"Error #and comment\n" + // 10
		"useragent: baz\n" + // 11
		"disallaw: /some\n" + // 12
		"site-map: https://e/s.xml #comment\n" + // 13
		"sitemap: https://e/t.xml\n" + // 14
		"Noarchive: /someCapital\n" // 15, then 16 (empty)
	want := []Line{
		{Num: 1, Kind: UserAgent, Key: "User-Agent", Value: "foo"},
		{Num: 2, Kind: Allow, Key: "Allow", Value: "/some/path"},
		{Num: 3, Kind: UserAgent, Key: "User-Agent", Value: "bar", Comment: " no", NoColon: true},
		{Num: 4, Kind: Invalid, Value: "absolutely random line"},
		{Num: 5, Kind: Comment, Comment: "so comment, much wow"},
		{Num: 6, Kind: Blank},
		{Num: 7, Kind: Other, Key: "unicorns", Value: "/extinct"},
		{Num: 8, Kind: Other, Key: "noarchive", Value: "/some"},
		{Num: 9, Kind: Disallow, Key: "Disallow", Value: "/"},
		{Num: 10, Kind: Invalid, Value: "Error", Comment: "and comment"},
		{Num: 11, Kind: UserAgent, Key: "useragent", Value: "baz", Typo: true},
		{Num: 12, Kind: Disallow, Key: "disallaw", Value: "/some", Typo: true},
		{Num: 13, Kind: Sitemap, Key: "site-map", Value: "https://e/s.xml", Comment: "comment", Typo: true},
		{Num: 14, Kind: Sitemap, Key: "sitemap", Value: "https://e/t.xml"},
		{Num: 15, Kind: Other, Key: "Noarchive", Value: "/someCapital"},
		{Num: 16, Kind: Blank},
	}
	var got []Line
	for l := range Lines([]byte(src)) {
		got = append(got, l)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		t.Run(fmt.Sprint(i+1), func(t *testing.T) {
			if got[i] != want[i] {
				t.Errorf("got  %+v\nwant %+v", got[i], want[i])
			}
		})
	}
}

// TestLineTooLong follows reporting_robots_test.cc LinesTooLongReportedCorrectly.
func TestLineTooLong(t *testing.T) {
	long := "/x/" + strings.Repeat("a", 2084*8)
	src := "user-agent: foo\ndisallow: " + long + "\nallow: /\n"
	var got []Line
	for l := range Lines([]byte(src)) {
		got = append(got, l)
	}
	if len(got) != 4 {
		t.Fatalf("got %d lines, want 4", len(got))
	}
	for i, want := range []bool{false, true, false, false} {
		if got[i].TooLong != want {
			t.Errorf("line %d: TooLong %v, want %v", i+1, got[i].TooLong, want)
		}
	}
	if n := len("disallow: ") + len(got[1].Value); n != MaxLineBytes || got[1].Kind != Disallow {
		t.Errorf("line 2: %s of %d bytes read, want disallow of %d", got[1].Kind, n, MaxLineBytes)
	}
}

// TestSitemapLines follows ID_NonStandardLineExample_Sitemap: a Sitemap line may be anywhere.
func TestSitemapLines(t *testing.T) {
	const loc = "http://foo.bar/sitemap.xml"
	const groups = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
	for _, tc := range []struct {
		desc, robots string
		line         int
	}{
		{"at the end", groups + "Sitemap: " + loc + "\n", 6},
		{"at the start", "Sitemap: " + loc + "\n" + groups, 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := Parse([]byte(tc.robots))
			if len(f.Sitemaps) != 1 || f.Sitemaps[0].Value != loc || f.Sitemaps[0].Num != tc.line {
				t.Errorf("got %+v, want %s on line %d", f.Sitemaps, loc, tc.line)
			}
		})
	}
}

// TestParseModel checks the File model: groups as written, with each line's number, and what no
// crawler obeys kept where a later check can report it.
func TestParseModel(t *testing.T) {
	src := "Allow: /early\n" + // 1: stray
		"# robotsmith: begin\n" + // 2
		"User-agent: GPTBot\n" + // 3
		"User-agent: CCBot\n" + // 4
		"Disallow: /\n" + // 5
		"Content-Usage: train-ai=n\n" + // 6
		"# robotsmith: end\n" + // 7
		"\n" + // 8
		"User-agent: *\n" + // 9
		"Content-Signal: search=yes, ai-train=no\n" + // 10
		"Allow: /\n" + // 11
		"this is not a rule\n" + // 12
		"Sitemap: https://example.org/sitemap.xml\n" + // 13
		"User-agent: gptbot\n" + // 14
		"Allow: /\n" // 15
	f := Parse([]byte(src))
	got := describe(f)
	want := `group 0: agents GPTBot@3 CCBot@4; rules disallow "/"@5
group 1: agents *@9; rules allow "/"@11
group 2: agents gptbot@14; rules allow "/"@15
sitemap https://example.org/sitemap.xml@13
other Content-Usage "train-ai=n"@6 in group 0
other Content-Signal "search=yes, ai-train=no"@10 in group 1
stray allow "/early"@1
invalid "this is not a rule"@12
comment " robotsmith: begin"@2
comment " robotsmith: end"@7
lines 16
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// GPTBot obeys its two groups, merged; the second one's Allow cancels the first one's
	// Disallow, and the decision names it.
	c := f.Crawler("GPTBot")
	if !c.Specific || fmt.Sprint(c.Groups) != "[0 2]" {
		t.Errorf("GPTBot obeys groups %v (specific %v), want [0 2]", c.Groups, c.Specific)
	}
	if d := c.Decide("/x"); !d.Allowed || d.Rule == nil || d.Rule.Num != 15 || d.Rule.Group != 2 {
		t.Errorf("GPTBot /x: got %+v, want allowed by line 15 of group 2", d)
	}
	if d := f.Decide("CCBot", "/x"); d.Allowed || d.Rule.Num != 5 {
		t.Errorf("CCBot /x: got %+v, want disallowed by line 5", d)
	}
	if c := f.Crawler("Googlebot-Image", "Googlebot"); c.Specific || fmt.Sprint(c.Groups) != "[1]" {
		t.Errorf("Googlebot-Image obeys %v (specific %v), want the * group [1]", c.Groups, c.Specific)
	}
}

func describe(f *File) string {
	var b strings.Builder
	for i, g := range f.Groups {
		fmt.Fprintf(&b, "group %d: agents", i)
		for _, a := range g.Agents {
			name := a.Token
			if a.Global {
				name = "*"
			}
			fmt.Fprintf(&b, " %s@%d", name, a.Num)
		}
		b.WriteString("; rules")
		for _, r := range g.Rules {
			if r.Group != i {
				fmt.Fprintf(&b, " (group %d!)", r.Group)
			}
			fmt.Fprintf(&b, " %s %q@%d", r.Kind, r.Pattern, r.Num)
		}
		b.WriteByte('\n')
	}
	for _, s := range f.Sitemaps {
		fmt.Fprintf(&b, "sitemap %s@%d\n", s.Value, s.Num)
	}
	for _, o := range f.Other {
		fmt.Fprintf(&b, "other %s %q@%d in group %d\n", o.Key, o.Value, o.Num, o.Group)
	}
	for _, l := range f.Stray {
		fmt.Fprintf(&b, "stray %s %q@%d\n", l.Kind, l.Value, l.Num)
	}
	for _, l := range f.Invalid {
		fmt.Fprintf(&b, "invalid %q@%d\n", l.Value, l.Num)
	}
	for _, l := range f.Comments {
		fmt.Fprintf(&b, "comment %q@%d\n", l.Comment, l.Num)
	}
	fmt.Fprintf(&b, "lines %d\n", f.NumLines)
	if f.Truncated {
		b.WriteString("truncated\n")
	}
	return b.String()
}

func TestParseTruncated(t *testing.T) {
	src := "User-agent: *\nDisallow: /a\n" + strings.Repeat("#\n", MaxBytes) + "Disallow: /b\n"
	f := Parse([]byte(src))
	if !f.Truncated || len(f.Groups[0].Rules) != 1 {
		t.Errorf("got truncated %v with %d rules, want the rule after %d bytes ignored", f.Truncated, len(f.Groups[0].Rules), MaxBytes)
	}
}

func TestKindString(t *testing.T) {
	if got := fmt.Sprint(Disallow, Kind(99)); got != "disallow Kind(99)" {
		t.Errorf("got %q", got)
	}
}

// TestOverruled checks the check SPEC §9 needs: a group for one crawler that another group for
// the same crawler cancels once they are merged.
func TestOverruled(t *testing.T) {
	const block = "# robotsmith: begin\nUser-agent: GPTBot\nDisallow: /\nAllow: /public/\n# robotsmith: end\n" // rules on lines 3 and 4
	for _, tc := range []struct {
		desc, rest string
		line       int // the rule of the block that is overruled
		by         int // the line that overrules it; 0 for none
	}{
		{"the user's Allow: / cancels the block's Disallow: /", "User-agent: GPTBot\nAllow: /\n", 3, 7},
		{"an Allow for one folder is an exception, not a cancellation", "User-agent: GPTBot\nAllow: /blog/\n", 3, 0},
		{"the * group is not merged with GPTBot's", "User-agent: *\nAllow: /\n", 3, 0},
		{"a group naming GPTBot in other case", "User-agent: gptbot\nAllow: /\n", 3, 7},
		{"an empty Disallow says nothing", "User-agent: GPTBot\nDisallow:\n", 3, 0},
		{"a Disallow of a longer path is an exception to the block's Allow", "User-agent: GPTBot\nDisallow: /public/x\nDisallow: /public/\n", 4, 0},
		{"an equal Disallow does not beat the block's Allow", "User-agent: GPTBot\nDisallow: /public/\n", 4, 0},
		{"a longer Disallow does", "User-agent: GPTBot\nDisallow: /public/*\n", 4, 7},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := Parse([]byte(block + tc.rest))
			c := f.Crawler("GPTBot")
			var r *Rule
			for i := range f.Groups[0].Rules {
				if f.Groups[0].Rules[i].Num == tc.line {
					r = &f.Groups[0].Rules[i]
				}
			}
			by := 0
			if o := c.Overruled(r); o != nil {
				by = o.Num
			}
			if by != tc.by {
				t.Errorf("line %d overruled by line %d, want %d", tc.line, by, tc.by)
			}
		})
	}
	f := Parse([]byte("User-agent: a\nDisallow: /\nUser-agent: b\nAllow: /\nDisallow: *.pdf$\n"))
	if o := f.Crawler("a").Overruled(&f.Groups[1].Rules[0]); o != nil {
		t.Errorf("a rule of a group the crawler does not obey is overruled by line %d", o.Num)
	}
	if o := f.Crawler("b").Overruled(&f.Groups[1].Rules[1]); o != nil {
		t.Errorf("Disallow *.pdf$ overruled by line %d", o.Num)
	}
}
