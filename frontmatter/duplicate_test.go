package frontmatter

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/robotsmith/robotsmith/rules"
)

// givenTwiceCases are front matter blocks that give a key twice: a robots key (SPEC §3) is an error
// naming both lines, whatever the format and however deep robotsmith reads it; any other key keeps
// its last value, as before.
var givenTwiceCases = []struct {
	desc    string
	src     string
	dialect Dialect // the zero value is Hugo
	err     string  // Robots' and Cascades' errors joined, in line order; "" for none
	want    []rules.Input
}{
	{
		desc: "yaml robots",
		src:  "---\ntitle: a\nrobots: noindex\nrobots: index\n---\n",
		err:  "p.md:4: front matter: robots given again (first at line 3)",
	},
	{
		desc:    "yaml robots in Jekyll",
		src:     "---\nrobots: noindex\ntitle: a\nrobots: index\n---\n",
		dialect: Jekyll,
		err:     "p.md:4: front matter: robots given again (first at line 2)",
	},
	{
		desc: "yaml robots three times names the first",
		src:  "---\nrobots: noindex\nrobots: nofollow\nrobots: index\n---\n",
		err:  "p.md:4: front matter: robots given again (first at line 2)",
	},
	{
		desc: "yaml keys that differ in case",
		src:  "---\nRobots: noindex\nrobots: index\n---\n",
		err:  `p.md:3: front matter: robots given again (first at line 2, as "Robots")`,
	},
	{
		desc: "yaml shorthands",
		src:  "---\nnoindex: true\nnofollow: true\nNoIndex: false\n---\n",
		err:  `p.md:4: front matter: NoIndex given again (first at line 2, as "noindex")`,
	},
	{
		desc: "yaml empty value first",
		src:  "---\nunavailable_after:\nunavailable_after: 2027-01-31\n---\n",
		err:  "p.md:3: front matter: unavailable_after given again (first at line 2)",
	},
	{
		desc: "yaml agent in a robots map",
		src:  "---\nrobots:\n  googlebot: noindex\n  bingbot: noarchive\n  googlebot: index\n---\n",
		err:  "p.md:5: front matter: robots.googlebot given again (first at line 3)",
	},
	{
		desc: "yaml agent names that differ in case and space",
		src:  "---\nrobots:\n  ' GoogleBot': noindex\n  googlebot: index\n---\n",
		err:  `p.md:4: front matter: robots.googlebot given again (first at line 3, as "robots. GoogleBot")`,
	},
	{
		desc: "yaml flow map",
		src:  "---\nrobots: {googlebot: noindex, googlebot: index}\n---\n",
		err:  "p.md:2: front matter: robots.googlebot given again (first at line 2)",
	},
	{
		desc: "yaml params",
		src:  "---\nparams:\n  robots: noindex\n  robots: index\n---\n",
		err:  "p.md:4: front matter: params.robots given again (first at line 3)",
	},
	{
		desc:    "yaml params is Hugo's only",
		src:     "---\nparams:\n  robots: noindex\n  robots: index\n---\n",
		dialect: Jekyll,
	},
	{
		desc: "yaml params in two cases: both are read, as Hugo merges them",
		src:  "---\nParams:\n  robots: noindex\nparams:\n  title: x\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex", Source: fm("Params.robots", 3)}},
	},
	{
		desc: "yaml params in two cases, each with robots",
		src:  "---\nParams:\n  robots: noindex\nparams:\n  robots: index\n---\n",
		err:  `p.md:5: front matter: params.robots given again (first at line 3, as "Params.robots")`,
	},
	{
		desc: "yaml top and params are two sources, not one key given twice",
		src:  "---\nrobots: noindex\nparams:\n  robots: nofollow\n---\n",
		want: []rules.Input{
			{Agent: "robots", Value: "noindex", Source: fm("robots", 2)},
			{Agent: "robots", Value: "nofollow", Source: fm("params.robots", 4)},
		},
	},
	{
		desc: "yaml expiryDate in Hugo",
		src:  "---\nexpiryDate: 2027-01-31\nexpirydate: 2030-01-01\n---\n",
		err:  `p.md:3: front matter: expirydate given again (first at line 2, as "expiryDate")`,
	},
	{
		desc:    "yaml expiryDate in Jekyll is not robotsmith's",
		src:     "---\nexpiryDate: 2027-01-31\nexpiryDate: 2030-01-01\n---\n",
		dialect: Jekyll,
	},
	{
		desc: "yaml cascade values",
		src:  "---\ncascade:\n  robots: noindex\n  robots: index\n---\n",
		err:  "p.md:4: front matter: robots given again (first at line 3)",
	},
	{
		desc: "yaml cascade list entry",
		src:  "---\ncascade:\n  - target: {path: /a/**}\n    noindex: true\n    noindex: false\n---\n",
		err:  "p.md:5: front matter: noindex given again (first at line 4)",
	},
	{
		desc: "yaml two cascade entries are two sources",
		src:  "---\ncascade:\n  - robots: noindex\n  - robots: index\n---\n",
	},
	{
		desc: "yaml merge key: the mapping's own key replaces the merged one",
		src:  "---\nbase: &b {robots: noindex}\n<<: *b\nrobots: index\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "index", Source: fm("robots", 4)}},
	},
	{
		desc: "yaml title twice stays accepted",
		src:  "---\ntitle: a\ntitle: b\nrobots: noindex\n---\n",
		want: []rules.Input{{Agent: "robots", Value: "noindex", Source: fm("robots", 4)}},
	},
	{
		desc: "toml robots",
		src:  "+++\nrobots = 'noindex'\ntitle = 'a'\nrobots = 'index'\n+++\n",
		err:  "p.md:4: front matter: robots given again (first at line 2)",
	},
	{
		desc: "toml robots then a robots table",
		src:  "+++\nrobots = 'noindex'\n[robots]\ngooglebot = 'index'\n+++\n",
		err:  "p.md:3: front matter: robots given again (first at line 2)",
	},
	{
		desc: "toml agent as a dotted key and in its table",
		src:  "+++\nrobots.googlebot = 'noindex'\n[robots]\ngooglebot = 'index'\n+++\n",
		err:  "p.md:4: front matter: robots.googlebot given again (first at line 2)",
	},
	{
		desc: "toml params table",
		src:  "+++\n[params]\nnoindex = true\nnoindex = false\n+++\n",
		err:  "p.md:4: front matter: params.noindex given again (first at line 3)",
	},
	{
		desc: "toml title twice stays accepted",
		src:  "+++\ntitle = 'a'\ntitle = 'b'\n+++\n",
	},
	{
		desc: "json robots",
		src:  "{\n  \"robots\": \"noindex\",\n  \"robots\": \"index\"\n}\n",
		err:  "p.md:3: front matter: robots given again (first at line 2)",
	},
	{
		desc: "json agent",
		src:  "{\"robots\": {\"googlebot\": \"noindex\",\n \"googlebot\": \"index\"}}\n",
		err:  "p.md:2: front matter: robots.googlebot given again (first at line 1)",
	},
	{
		desc: "json title twice stays accepted",
		src:  "{\"title\": \"a\", \"title\": \"b\"}\n",
	},
}

func TestRobotsGivenTwice(t *testing.T) {
	for _, tc := range givenTwiceCases {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Parse("p.md", []byte(tc.src), tc.dialect)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			in, rerr := d.Robots()
			var cerr error
			if tc.dialect == Hugo {
				_, cerr = d.Cascades()
			}
			got := ""
			if err := errors.Join(rerr, cerr); err != nil {
				got = sortedLines(err.Error())
			}
			if got != tc.err {
				t.Errorf("errors:\n got %q\nwant %q", got, tc.err)
			}
			if tc.err == "" && !reflect.DeepEqual(in, tc.want) {
				t.Errorf("Robots() =\n%v\nwant\n%v", in, tc.want)
			}
		})
	}
}

// TestRobotsGivenTwiceInConfig checks a site configuration's cascade (hugo.toml, hugo.yaml): a
// robots key given twice in an entry is an error there too.
func TestRobotsGivenTwiceInConfig(t *testing.T) {
	for _, tc := range []struct {
		desc, file, src string
		format          Format
		err             string
	}{
		{"toml", "hugo.toml", "title = 't'\n[cascade]\nnoindex = true\nnoindex = false\n", TOML, "hugo.toml:4: config: noindex given again (first at line 3)"},
		{"toml array of tables", "hugo.toml", "[[cascade]]\nrobots = 'noindex'\n[cascade.robots]\ngooglebot = 'index'\n", TOML, "hugo.toml:3: config: robots given again (first at line 2)"},
		{"yaml", "hugo.yaml", "cascade:\n  - target: {path: /a/**}\n    robots: noindex\n    ROBOTS: index\n", YAML, `hugo.yaml:4: config: ROBOTS given again (first at line 3, as "robots")`},
		{"yaml two entries", "hugo.yaml", "cascade:\n  - robots: noindex\n  - robots: index\n", YAML, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			d, err := Decode(tc.file, []byte(tc.src), tc.format)
			if err != nil {
				t.Fatal(err)
			}
			k, _ := d.Root.Fold("cascade")
			_, err = d.CascadesAt(k)
			if got := fmt.Sprint(err); tc.err == "" && err != nil || tc.err != "" && got != tc.err {
				t.Errorf("error = %v, want %q", err, tc.err)
			}
		})
	}
}
