package frontmatter

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/robotsmith/robotsmith/rules"
)

// fm is the source of front matter key k at line n of p.md.
func fm(k string, n int) rules.Source {
	return rules.Source{Kind: rules.FromFrontMatter, File: "p.md", Line: n, Key: k}
}

var robotsCases = []struct {
	desc    string
	src     string
	dialect Dialect // the zero value is Hugo
	want    []rules.Input
	err     string // the joined message; "" for none
}{
	{
		desc: "yaml robots string",
		src:  "---\ntitle: x\nrobots: noindex, nofollow\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex, nofollow", Source: fm("robots", 3)}},
	},
	{
		desc: "yaml robots list, key in another case",
		src:  "---\nRobots:\n  - noindex\n  - ' NoArchive '\n  - ''\n---\n",
		want: []rules.Input{
			{Agent: "robots", Value: "noindex", Source: fm("Robots", 2)},
			{Agent: "robots", Value: "NoArchive", Source: fm("Robots", 2)},
		},
	},
	{
		desc: "yaml robots map per agent",
		src:  "---\nrobots:\n  robots: noarchive\n  GoogleBot-News: nosnippet\n  bingbot: [nocache, 'max-snippet:20']\n---\n",
		want: []rules.Input{
			{Agent: "googlebot-news", Value: "nosnippet", Source: fm("robots.GoogleBot-News", 4)},
			{Agent: "bingbot", Value: "nocache", Source: fm("robots.bingbot", 5)},
			{Agent: "bingbot", Value: "max-snippet:20", Source: fm("robots.bingbot", 5)},
			{Agent: "robots", Value: "noarchive", Source: fm("robots.robots", 3)},
		},
	},
	{
		desc: "shorthands",
		src:  "---\nnoindex: true\nNoFollow: \"TRUE\"\n---\n",
		want: []rules.Input{
			{Agent: "robots", Value: "noindex", Source: fm("noindex", 2)},
			{Agent: "robots", Value: "nofollow", Source: fm("NoFollow", 3)},
		},
	},
	{
		desc: "shorthands set to false and empty values add nothing",
		src:  "---\nnoindex: false\nnofollow: \"false\"\nrobots:\nunavailable_after: ''\n---\n",
	},
	{
		desc: "yaml 1.1 and integer booleans",
		src:  "---\nnoindex: yes\nnofollow: 0\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex", Source: fm("noindex", 2)}},
	},
	{
		desc: "toml integer boolean",
		src:  "+++\nnofollow = 1\nnoindex = 'Off'\n+++\n",
		want: []rules.Input{{Agent: "robots", Value: "nofollow", Source: fm("nofollow", 2)}},
	},
	{
		desc: "yaml merge key gives the anchor's line",
		src:  "---\nbase: &b\n  noindex: true\n  title: x\n<<: *b\ntitle: y\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex", Source: fm("noindex", 3)}},
	},
	{
		desc: "yaml dates as written",
		src:  "---\nunavailable_after: 2027-01-31\nexpiryDate: 2026-05-01T10:00:00+02:00\n---\n",
		want: []rules.Input{
			{Agent: "robots", Value: "unavailable_after:2027-01-31", Source: fm("unavailable_after", 2)},
			{Agent: "robots", Value: "unavailable_after:2026-05-01T10:00:00+02:00", Source: fm("expiryDate", 3)},
		},
	},
	{
		desc: "yaml rfc 850 date string",
		src:  "---\nunavailable_after: \"Sunday, 31-Jan-27 00:00:00 GMT\"\n---\n",
		want: []rules.Input{
			{Agent: "robots", Value: "unavailable_after:Sunday, 31-Jan-27 00:00:00 GMT", Source: fm("unavailable_after", 2)},
		},
	},
	{
		desc: "toml keys and dates",
		src:  "+++\ntitle = 'x'\nexpirydate = 2027-01-31\nunpublishDate = 2027-02-01T08:00:00\nunavailable_after = 2027-03-01T00:00:00Z\nnoindex = true\n[robots]\ngooglebot = ['nosnippet']\n+++\n",
		want: []rules.Input{
			{Agent: "googlebot", Value: "nosnippet", Source: fm("robots.googlebot", 8)},
			{Agent: "robots", Value: "noindex", Source: fm("noindex", 6)},
			{Agent: "robots", Value: "unavailable_after:2027-03-01T00:00:00Z", Source: fm("unavailable_after", 5)},
			{Agent: "robots", Value: "unavailable_after:2027-01-31", Source: fm("expirydate", 3)},
			{Agent: "robots", Value: "unavailable_after:2027-02-01T08:00:00", Source: fm("unpublishDate", 4)},
		},
	},
	{
		desc: "toml inline robots table",
		src:  "+++\nrobots = {robots = 'noindex', googlebot = 'noarchive'}\n+++\n",
		want: []rules.Input{
			{Agent: "googlebot", Value: "noarchive", Source: fm("robots.googlebot", 2)},
			{Agent: "robots", Value: "noindex", Source: fm("robots.robots", 2)},
		},
	},
	{
		desc: "json",
		src:  "{\n\"robots\": \"noindex\",\n\"nofollow\": true,\n\"expiryDate\": \"2027-01-31T00:00:00Z\"\n}\n",
		want: []rules.Input{
			{Agent: "robots", Value: "noindex", Source: fm("robots", 2)},
			{Agent: "robots", Value: "nofollow", Source: fm("nofollow", 3)},
			{Agent: "robots", Value: "unavailable_after:2027-01-31T00:00:00Z", Source: fm("expiryDate", 4)},
		},
	},
	{
		desc: "hugo params robots",
		src:  "---\ntitle: x\nparams:\n  robots: noindex\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex", Source: fm("params.robots", 4)}},
	},
	{
		desc: "hugo params noindex in a flow map",
		src:  "---\nparams: {noindex: true}\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex", Source: fm("params.noindex", 2)}},
	},
	{
		desc: "hugo params table in toml, key in another case",
		src:  "+++\ntitle = 'x'\n[Params]\nnoindex = true\nrobots = 'nosnippet'\n+++\n",
		want: []rules.Input{
			{Agent: "robots", Value: "nosnippet", Source: fm("Params.robots", 5)},
			{Agent: "robots", Value: "noindex", Source: fm("Params.noindex", 4)},
		},
	},
	{
		desc: "hugo params beside the top level keys",
		src:  "---\nnofollow: true\nparams:\n  robots: noindex\n---\n",
		want: []rules.Input{
			{Agent: "robots", Value: "nofollow", Source: fm("nofollow", 2)},
			{Agent: "robots", Value: "noindex", Source: fm("params.robots", 4)},
		},
	},
	{
		desc: "hugo params robots of the wrong type",
		src:  "---\nparams:\n  noindex: maybe\n---\n",
		err:  "p.md:3: front matter: params.noindex: want true or false, got \"maybe\"",
	},
	{
		desc:    "jekyll has no params: a site's own key",
		src:     "---\nparams: {robots: noindex, noindex: true}\n---\n",
		dialect: Jekyll,
	},
	{
		desc: "no robots keys",
		src:  "---\ntitle: x\n---\n",
	},
	{
		desc: "robots of the wrong type",
		src:  "---\ntitle: x\nrobots: 42\n---\n",
		err:  "p.md:3: front matter: robots: want a string, a list of strings or a map of agent to directives, got 42",
	},
	{
		desc: "robots list with a number",
		src:  "---\nrobots: [noindex, 3]\n---\n",
		err:  "p.md:2: front matter: robots: want a string, a list of strings or a map of agent to directives, got a list of values that are not all strings (3)",
	},
	{
		desc: "robots map with a nested map",
		src:  "---\nrobots:\n  googlebot:\n    x: y\n---\n",
		err:  "p.md:2: front matter: robots: googlebot: want a string or a list of strings, got a map",
	},
	{
		desc: "every wrong value is reported",
		src:  "---\r\nnoindex: maybe\r\nnofollow: 2\r\nunavailable_after: [2027]\r\nrobots: index\r\n---\r\n",
		want: []rules.Input{{Agent: "robots", Value: "index", Source: fm("robots", 5)}},
		err: "p.md:3: front matter: nofollow: want true or false, got 2\n" +
			"p.md:2: front matter: noindex: want true or false, got \"maybe\"\n" +
			"p.md:4: front matter: unavailable_after: want a date, got a list of values that are not all strings (2027)",
	},
}

func TestRobots(t *testing.T) {
	for _, tc := range robotsCases {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("p.md", []byte(tc.src), tc.dialect)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := d.Robots()
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Robots() =\n%v\nwant\n%v", got, tc.want)
			}
			if tc.err == "" {
				if err != nil {
					t.Errorf("Robots() error = %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Robots() error = nil, want %q", tc.err)
			}
			if got := sortedLines(err.Error()); got != sortedLines(tc.err) {
				t.Errorf("Robots() error =\n%s\nwant\n%s", err, tc.err)
			}
			var fe *Error
			if !errors.As(err, &fe) || fe.File != "p.md" || fe.Line == 0 {
				t.Errorf("Robots() error %v has no *Error with file and line", err)
			}
		})
	}
}

// sortedLines puts an errors.Join message's lines in order, since the
// problems of one document are joined in key order, not line order.
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j] < lines[j-1]; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
	return strings.Join(lines, "\n")
}

// TestInputsShareCommonStrings checks that the inputs of many pages that say the same common thing
// keep one string for it, in each front matter format: the run keeps every page's inputs.
func TestInputsShareCommonStrings(t *testing.T) {
	docs := []struct{ name, src string }{
		{"yaml", "---\nrobots: \"noindex, nofollow\"\nnoindex: true\n---\n"},
		{"toml", "+++\nrobots = \"noindex, nofollow\"\nnoindex = true\n+++\n"},
		{"json", "{\"robots\": \"noindex, nofollow\", \"noindex\": true}\n"},
		{"agents", "---\nrobots: {googlebot: nosnippet}\n---\n"},
	}
	for _, tc := range docs {
		t.Run(tc.name, func(t *testing.T) {
			var first []rules.Input
			for n := range 2 {
				d, err := Parse("a.md", []byte(tc.src), Hugo)
				if err != nil {
					t.Fatal(err)
				}
				in, err := d.Robots()
				if err != nil || len(in) == 0 {
					t.Fatalf("inputs %v, err %v", in, err)
				}
				if n == 0 {
					first = in
					continue
				}
				for i := range in {
					for _, s := range [][2]string{{in[i].Value, first[i].Value}, {in[i].Source.Key, first[i].Source.Key}, {in[i].Agent, first[i].Agent}} {
						if unsafe.StringData(s[0]) != unsafe.StringData(s[1]) {
							t.Errorf("input %d: %q is a copy of its own in each page", i, s[0])
						}
					}
				}
			}
		})
	}
}
