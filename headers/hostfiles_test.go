package headers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/internal/markers"
)

// writers are the host formats' writers by name, as their goldens are named.
var writers = []struct {
	name string
	w    func(Files, Options) (Result, error)
}{
	{"nginx", Nginx},
	{"apache", Apache},
	{"caddy", Caddy},
	{"vercel", Vercel},
	{"firebase", Firebase},
}

func TestHostGolden(t *testing.T) {
	input := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	firebaseNew := []byte("{\n  \"hosting\": {\n    \"public\": \"public\"\n  }\n}\n")
	tests := []struct {
		desc, golden string
		w            func(Files, Options) (Result, error)
		files        []File
		opt          Options
	}{
		{"nginx, a small site", "nginx-small.golden", Nginx, smallSite(), Options{Self: "/" + NginxFile}},
		{"nginx, Content-Usage and the site's add_header lines", "nginx-usage.golden", Nginx, smallSite(), Options{ContentUsage: "train-ai=n", NginxInclude: "/etc/nginx/site-headers.conf"}},
		{"nginx, names that need quoting", "nginx-names.golden", Nginx, jsonSite(), Options{}},
		{"apache, a small site", "apache-small.golden", Apache, smallSite(), Options{}},
		{"apache, into the site's .htaccess, with Content-Usage", "apache-user.golden", Apache, smallSite(), Options{ContentUsage: "train-ai=n", Existing: input("apache-user.input")}},
		{"apache, names that need quoting", "apache-names.golden", Apache, jsonSite(), Options{}},
		{"caddy, a small site", "caddy-small.golden", Caddy, smallSite(), Options{Self: "/" + CaddyFile, ContentUsage: "train-ai=n"}},
		{"caddy, names that need quoting", "caddy-names.golden", Caddy, jsonSite(), Options{}},
		{"vercel, a new vercel.json", "vercel-small.golden", Vercel, smallSite(), Options{ContentUsage: "train-ai=n"}},
		{"vercel, into the site's vercel.json", "vercel-user.golden", Vercel, smallSite(), Options{Existing: input("vercel-user.input")}},
		{"vercel, names that need matching either way", "vercel-names.golden", Vercel, jsonSite(), Options{}},
		{"firebase, into a new site's firebase.json", "firebase-small.golden", Firebase, smallSite(), Options{ContentUsage: "train-ai=n", Existing: firebaseNew}},
		{"firebase, into one site of several, with comments", "firebase-user.golden", Firebase, smallSite(), Options{Existing: input("firebase-user.input"), Site: "blog"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r, err := tc.w(List(tc.files), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.golden, r.Data)
			// The same again, from its own output, changes nothing.
			opt := tc.opt
			opt.Existing, opt.Record = r.Data, r.Record
			again, err := tc.w(List(tc.files), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Data, r.Data) {
				t.Errorf("a second run changed the file; got:\n%s\nwant:\n%s", again.Data, r.Data)
			}
		})
	}
}

// userEntries are the bytes of the user's entries in the inputs, which every run must keep as
// they are.
var userEntries = map[string][]string{
	"vercel-user.input": {
		"{\n            \"source\": \"/(.*)\",\n            \"headers\": [{ \"key\": \"X-Frame-Options\", \"value\": \"DENY\" }]\n        }",
		"\"redirects\": [{ \"source\": \"/old\", \"destination\": \"/new\" }]",
		"\"$schema\": \"https://openapi.vercel.sh/vercel.json\",\n    \"cleanUrls\": true,",
	},
	"firebase-user.input": {
		"// Firebase's CLI reads comments in firebase.json.",
		"/* the site's own */\n        {\"source\": \"**/*.@(jpg|png)\", \"headers\": [{\"key\": \"Cache-Control\", \"value\": \"max-age=7200\"}]}",
		"{\n      \"target\": \"docs\",\n      \"public\": \"docs/public\"\n    }",
		"\"firestore\": {\"rules\": \"firestore.rules\"}",
	},
}

// TestJSONOwnership checks that robotsmith replaces exactly the entries it wrote (those its
// record lists) and keeps the user's byte for byte, through changes of decisions, a reformatted
// file, entries moved, and a record lost.
func TestJSONOwnership(t *testing.T) {
	before := smallSite()
	after := smallSite()
	after[4].Lines = ls(g("noindex")) // report.pdf changes
	after = append(after, File{Path: "/new.pdf", Lines: ls(g("nosnippet"))})
	for _, tc := range []struct {
		input string
		w     func(Files, Options) (Result, error)
		site  string
	}{
		{"vercel-user.input", Vercel, ""},
		{"firebase-user.input", Firebase, "blog"},
	} {
		t.Run(tc.input, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", tc.input))
			if err != nil {
				t.Fatal(err)
			}
			keeps := func(desc string, data []byte) {
				t.Helper()
				for _, u := range userEntries[tc.input] {
					if !bytes.Contains(data, []byte(u)) {
						t.Errorf("%s: the user's %q is gone or changed:\n%s", desc, u, data)
					}
				}
			}
			first, err := tc.w(List(before), Options{Existing: in, Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			keeps("first run", first.Data)
			second, err := tc.w(List(after), Options{Existing: first.Data, Record: first.Record, Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			keeps("decisions changed", second.Data)
			fresh, err := tc.w(List(after), Options{Existing: in, Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(second.Data, fresh.Data) {
				t.Errorf("after a change of decisions the file differs from one written afresh; got:\n%s\nwant:\n%s", second.Data, fresh.Data)
			}
			for _, f := range [][]byte{first.Data, second.Data} {
				if n := countOwned(t, f, tc.site != ""); n == 0 {
					t.Errorf("no entry of robotsmith's:\n%s", f)
				}
			}

			// The user's formatter rewrites the whole file: robotsmith still finds its entries.
			reflowed := reflow(t, withoutComments(first.Data))
			third, err := tc.w(List(after), Options{Existing: reflowed, Record: first.Record, Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := countOwned(t, third.Data, tc.site != ""), countOwned(t, fresh.Data, tc.site != ""); got != want {
				t.Errorf("after a reformat: %d X-Robots-Tag or Content-Usage entries, want %d (old ones left behind?):\n%s", got, want, third.Data)
			}

			// The record lost: entries identical to robotsmith's are its own, no duplicates.
			lost, err := tc.w(List(before), Options{Existing: first.Data, Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(lost.Data, first.Data) {
				t.Errorf("without the record, the same decisions changed the file:\n%s", lost.Data)
			}
			// The record lost and the decisions changed: the old entries stay, as the user's,
			// and are findings.
			stale, err := tc.w(List(after), Options{Existing: first.Data, Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			if len(stale.Findings) == 0 {
				t.Errorf("entries robotsmith can no longer tell from the user's, and no finding:\n%s", stale.Data)
			}
			// A record that cannot be read is a finding, and robotsmith goes by identical
			// entries.
			bad, err := tc.w(List(before), Options{Existing: first.Data, Record: []byte("{not json"), Site: tc.site})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(bad.Data, first.Data) || len(bad.Findings) == 0 || !strings.Contains(bad.Findings[0].Msg, "record") {
				t.Errorf("an unreadable record: findings %v, file changed %v", bad.Findings, !bytes.Equal(bad.Data, first.Data))
			}
		})
	}
}

// countOwned counts the entries that set X-Robots-Tag or Content-Usage in a written file.
func countOwned(t *testing.T, data []byte, firebase bool) int {
	t.Helper()
	n := 0
	for _, r := range readHostRules(t, data, firebase) {
		if _, ok := r.headers["x-robots-tag"]; ok {
			n++
		} else if _, ok := r.headers["content-usage"]; ok {
			n++
		}
	}
	return n
}

// reflow rewrites a JSON file the way a formatter might: tabs, one key a line.
func reflow(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "\t"); err != nil {
		t.Fatalf("reflow: %v\n%s", err, data)
	}
	return b.Bytes()
}

// TestJSONLineBreaks checks that entries written into a file with CRLF line breaks use them too.
func TestJSONLineBreaks(t *testing.T) {
	in := []byte("{\r\n  \"cleanUrls\": true,\r\n  \"headers\": [\r\n    {\"source\": \"/x\", \"headers\": []}\r\n  ]\r\n}\r\n")
	for _, existing := range [][]byte{in, bytes.Replace(in, []byte(",\r\n  \"headers\": [\r\n    {\"source\": \"/x\", \"headers\": []}\r\n  ]"), nil, 1)} {
		r, err := Vercel(List{{Path: "/a.pdf", Lines: ls(g("noindex"))}}, Options{Existing: existing})
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(r.Data, []byte("\n")); n != bytes.Count(r.Data, []byte("\r\n")) || n < 8 {
			t.Errorf("line breaks mixed, or entries on one line:\n%q", r.Data)
		}
	}
}

// TestJSONPlace checks where robotsmith's entries go: in place of the first of its old ones,
// wherever the user moved them, else at the end.
func TestJSONPlace(t *testing.T) {
	files := []File{{Path: "/a.pdf", Lines: ls(g("noindex"))}}
	first, err := Vercel(List(files), Options{Existing: []byte(`{"headers": [{"source": "/x", "headers": [{"key": "A", "value": "1"}]}]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(strings.TrimSpace(string(first.Data)), `"/(a\\.pdf)","headers":[{"key":"X-Robots-Tag","value":"noindex"}]}]}`) {
		t.Errorf("robotsmith's entry is not at the end:\n%s", first.Data)
	}
	// The user moves robotsmith's entry first and adds one after it.
	var doc struct{ Headers []json.RawMessage }
	if err := json.Unmarshal(first.Data, &doc); err != nil {
		t.Fatal(err)
	}
	moved := fmt.Sprintf(`{"headers": [%s, {"source": "/x", "headers": [{"key": "A", "value": "1"}]}, {"source": "/y", "headers": [{"key": "B", "value": "2"}]}]}`, doc.Headers[1])
	files[0].Lines = ls(g("noindex, nofollow"))
	r, err := Vercel(List(files), Options{Existing: []byte(moved), Record: first.Record})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"headers": [{"source":"/(a\\.pdf)","headers":[{"key":"X-Robots-Tag","value":"noindex, nofollow"}]}, {"source": "/x", "headers": [{"key": "A", "value": "1"}]}, {"source": "/y", "headers": [{"key": "B", "value": "2"}]}]}`
	if string(r.Data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", r.Data, want)
	}
	// Nothing to write any more: robotsmith's entries go, the user's stay.
	r, err = Vercel(List(nil), Options{Existing: []byte(want), Record: r.Record})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"headers": [{"source": "/x", "headers": [{"key": "A", "value": "1"}]}, {"source": "/y", "headers": [{"key": "B", "value": "2"}]}]}`; string(r.Data) != want {
		t.Errorf("got:\n%s\nwant:\n%s", r.Data, want)
	}
}

func TestHostErrors(t *testing.T) {
	ok := []File{{Path: "/a.pdf", Lines: ls(g("noindex"))}}
	routes := `{"redirects": [` + strings.Repeat(`{"source": "/a", "destination": "/b"},`, VercelMaxRoutes) + `{"source": "/a", "destination": "/b"}]}`
	tests := []struct {
		desc  string
		w     func(Files, Options) (Result, error)
		files []File
		opt   Options
		is    error  // errors.Is, or nil
		msg   string // in the message
	}{
		{"a control character in a path", Nginx, []File{{Path: "/a\nb.pdf", Lines: ls(g("noindex"))}}, Options{}, ErrPath, "robotsmith.nginx.conf: /a\nb.pdf: holds a control character"},
		{"a path that is not UTF-8", Caddy, []File{{Path: "/a\xffb.pdf", Lines: ls(g("noindex"))}}, Options{}, ErrPath, "is not valid UTF-8"},
		{"a dot segment", Vercel, []File{{Path: "/a/../b.pdf", Lines: ls(g("noindex"))}}, Options{}, ErrPath, "a . or .. segment"},
		{"a page served at its folder and its index.html with other lines", Apache, []File{{Path: "/d/", Lines: ls(g("noindex"))}, {Path: "/d/index.html", Lines: ls(g("nofollow"))}}, Options{}, ErrLines, `is served at "/d/index.html"`},
		{"nginx reads $ as a variable", Nginx, []File{{Path: "/a.pdf", Lines: ls(g("noindex, $x"))}}, Options{}, ErrLines, "holds '$'"},
		{"nginx's include of the site's headers is a glob", Nginx, ok, Options{NginxInclude: "/etc/nginx/*.conf"}, nil, "as a pattern"},
		{"apache reads expr= as an expression", Apache, []File{{Path: "/a.pdf", Lines: ls(g("expr=true"))}}, Options{}, ErrLines, "begins with expr="},
		{"caddy reads braces as a placeholder", Caddy, []File{{Path: "/a.pdf", Lines: ls(g("noindex"))}}, Options{ContentUsage: "{env.X}"}, ErrLines, "the Content-Usage value"},
		{"an unclosed robotsmith block in .htaccess", Apache, ok, Options{Existing: []byte("Options -Indexes\n" + markers.Begin + "\nHeader set A b\n")}, ErrUnclosed, ".htaccess:2:"},
		{"vercel.json that is not JSON", Vercel, ok, Options{Existing: []byte("{\n  \"headers\": [,]\n}")}, nil, "vercel.json:2:15: not a JSON value"},
		{"vercel.json nested without end", Vercel, ok, Options{Existing: []byte("{\"a\":" + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "}")}, nil, "nested more than 200 deep"},
		{"vercel.json whose headers is not a list", Vercel, ok, Options{Existing: []byte(`{"headers": {}}`)}, nil, "vercel.json:1: headers is not a list"},
		{"vercel.json with routes", Vercel, ok, Options{Existing: []byte("{\n\"routes\": []}")}, nil, "vercel.json:2: the file has routes"},
		{"vercel's limit of routes", Vercel, ok, Options{Existing: []byte(routes)}, ErrTooManyRules, "the host allows 2048 routes, this site needs 2050"},
		{"no firebase.json", Firebase, ok, Options{}, nil, "there is no firebase.json"},
		{"firebase.json without hosting", Firebase, ok, Options{Existing: []byte(`{"functions": {}}`)}, nil, "there is no hosting"},
		{"firebase.json with several sites and none named", Firebase, ok, Options{Existing: []byte(`{"hosting": [{"target": "a"}, {"site": "b"}]}`)}, nil, "hosting lists 2 sites (a, b): name the one"},
		{"firebase.json without the site named", Firebase, ok, Options{Existing: []byte(`{"hosting": [{"target": "a"}, {"site": "b"}]}`), Site: "c"}, nil, `has no site or target "c"`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := tc.w(List(tc.files), tc.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want one that is %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q, want it to say %q", err, tc.msg)
			}
		})
	}
}

func TestHostFindings(t *testing.T) {
	files := []File{
		{Path: "/files/a.pdf", Lines: ls(g("noindex"))},
		{Path: "/files/b.pdf", Lines: ls(g("noindex"))},
		{Path: "/img/c.png"},
	}
	tests := []struct {
		desc string
		w    func(Files, Options) (Result, error)
		opt  Options
		want []string
	}{
		{"apache: the site's own X-Robots-Tag and Content-Usage lines", Apache, Options{ContentUsage: "train-ai=n",
			Existing: []byte("Header set X-Frame-Options DENY\nHeader always set X-Robots-Tag noarchive\n  header append content-usage \"x\"\n")},
			[]string{".htaccess:2: a Header line of your own acts on X-Robots-Tag", ".htaccess:3: a Header line of your own acts on Content-Usage"}},
		{"apache: two robotsmith blocks", Apache, Options{ContentUsage: "train-ai=n",
			Existing: []byte("Header set X-Frame-Options DENY\n" + markers.Begin + "\n" + markers.End + "\n" + markers.Begin + "\n" + markers.End + "\n")},
			[]string{".htaccess:4: a second robotsmith block"}},
		{"vercel: an entry before robotsmith's, one after, one that matches none", Vercel, Options{ContentUsage: "train-ai=n", Existing: []byte(`{"headers": [
{"source": "/files/(.*)", "headers": [{"key": "x-robots-tag", "value": "noarchive"}]},
{"source": "/img/(.*)", "headers": [{"key": "X-Robots-Tag", "value": "noarchive"}]},
{"source": "/(.*)", "headers": [{"key": "Content-Usage", "value": "train-ai=y"}]}
]}`)},
			[]string{`vercel.json:2: /files/a.pdf: the entry with source "/files/(.*)" also sets X-Robots-Tag for a file robotsmith covers; robotsmith's entries come later, so vercel sends robotsmith's value instead (and 1 more files)`,
				"vercel.json:4: the entry also sets Content-Usage"}},
		{"firebase: a glob, a regex after robotsmith's entries, a glob robotsmith cannot read", Firebase, Options{Existing: []byte(`{"hosting": {"headers": [
{"source": "**/*.pdf", "headers": [{"key": "X-Robots-Tag", "value": "noarchive"}]},
{"regex": "^/files/b", "headers": [{"key": "X-Robots-Tag", "value": "noarchive"}]},
{"source": "/files/!(x).pdf", "headers": [{"key": "X-Robots-Tag", "value": "noarchive"}]}
]}}`)},
			[]string{`firebase.json:2: /files/a.pdf: the entry with glob "**/*.pdf" also sets X-Robots-Tag`,
				`firebase.json:3: /files/b.pdf: the entry with regex "^/files/b" also sets X-Robots-Tag`,
				`firebase.json:4: the entry with glob "/files/!(x).pdf" sets X-Robots-Tag, and robotsmith cannot tell which paths it matches`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			first, err := tc.w(List(files), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			// Findings are about the file as it is: on a second run robotsmith's entries are in it.
			opt := tc.opt
			opt.Existing, opt.Record = first.Data, first.Record
			second, err := tc.w(List(files), opt)
			if err != nil {
				t.Fatal(err)
			}
			runs := []Result{first, second}
			if len(markers.Find(tc.opt.Existing)) > 1 {
				runs = runs[:1] // the first run merges the blocks into one
			}
			for _, r := range runs {
				var got []string
				for _, f := range r.Findings {
					got = append(got, f.String())
				}
				if len(got) != len(tc.want) {
					t.Fatalf("findings:\n%s\nwant %d", strings.Join(got, "\n"), len(tc.want))
				}
				for i, w := range tc.want {
					if !strings.HasPrefix(got[i], w) {
						t.Errorf("finding %d:\n%s\nwant it to begin\n%s", i, got[i], w)
					}
				}
			}
		})
	}
	// After robotsmith's entries, the user's entry wins: the finding says so.
	r, err := Vercel(List(files), Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := bytes.Replace(r.Data, []byte("\n  ]"), []byte(",\n    {\"source\": \"/files/a.pdf\", \"headers\": [{\"key\": \"X-Robots-Tag\", \"value\": \"all\"}]}\n  ]"), 1)
	r, err = Vercel(List(files), Options{Existing: after, Record: r.Record})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || !strings.Contains(r.Findings[0].Msg, "this entry comes after robotsmith's entries, so vercel sends its value instead of robotsmith's") {
		t.Errorf("findings %v, want one saying the user's later entry wins", r.Findings)
	}
}

// TestHostIncludeLines checks the line the owner adds for each server format.
func TestHostIncludeLines(t *testing.T) {
	for _, tc := range []struct {
		desc, path string
		f          func(string) (string, error)
		want       string
	}{
		{"nginx", "/srv/www/public/robotsmith.nginx.conf", NginxInclude, `include "/srv/www/public/robotsmith.nginx.conf";`},
		{"nginx, a space and a quote", `/srv/my "site"/robotsmith.nginx.conf`, NginxInclude, `include "/srv/my \"site\"/robotsmith.nginx.conf";`},
		{"nginx, a glob", "/srv/*/robotsmith.nginx.conf", NginxInclude, ""},
		{"caddy", "/srv/www/public/robotsmith.caddy", CaddyImport, `import "/srv/www/public/robotsmith.caddy"`},
		{"caddy, a quote", `/srv/my "site"/robotsmith.caddy`, CaddyImport, "import `/srv/my \"site\"/robotsmith.caddy`"},
		{"caddy, a placeholder", "/srv/{$SITE}/robotsmith.caddy", CaddyImport, ""},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := tc.f(tc.path)
			if (err != nil) != (tc.want == "") || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// BenchmarkHosts100000 is each host's file for a 100,000-page site (10,000 PDFs with lines).
// Run: go test -run '^$' -bench Hosts100000 -benchmem ./headers
func BenchmarkHosts100000(b *testing.B) {
	files := List(bigSite(100000))
	firebase := []byte(`{"hosting": {"public": "public"}}`)
	for _, w := range writers {
		b.Run(w.name, func(b *testing.B) {
			opt := Options{}
			if w.name == "firebase" {
				opt.Existing = firebase
			}
			for b.Loop() {
				if _, err := w.w(files, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(files.Len()), "ns/file")
		})
	}
}

// FuzzJSONEntries writes robotsmith's entries into arbitrary vercel.json and firebase.json files:
// never a panic; a file it accepts comes out readable, with the same entries on a second run.
func FuzzJSONEntries(f *testing.F) {
	for _, name := range []string{"vercel-user.input", "firebase-user.input"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Add([]byte(`{"hosting": [{"site": "a", "headers": []}], "headers": [1, {}, "x" /* c */]}`), true)
	f.Add([]byte("{\"a\": {\"b\": [\n\t{\"c\": null}\n]}}"), false)
	files := List{{Path: "/a b.pdf", Lines: ls(g("noindex"))}, {Path: "/docs/", Lines: ls(g("nofollow"), ag("googlebot", "noarchive"))}}
	f.Fuzz(func(t *testing.T, data []byte, firebase bool) {
		w, site := Vercel, ""
		if firebase {
			w, site = Firebase, "a"
		}
		r, err := w(files, Options{Existing: data, Site: site, ContentUsage: "train-ai=n"})
		if err != nil {
			return
		}
		if _, err := readJSON(r.Data, "out"); err != nil {
			t.Fatalf("the written file cannot be read: %v\n%s", err, r.Data)
		}
		again, err := w(files, Options{Existing: r.Data, Record: r.Record, Site: site, ContentUsage: "train-ai=n"})
		if err != nil {
			t.Fatalf("the written file is refused: %v\n%s", err, r.Data)
		}
		if !bytes.Equal(again.Data, r.Data) {
			t.Fatalf("a second run changed the file:\n%s\nfirst:\n%s", again.Data, r.Data)
		}
	})
}
