package indexability_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/testsupport/recordtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// site is a small site with every field of the record in use: a home page, a post made noindex by
// a rule, a section robots.txt keeps Googlebot from, a page canonical to another, a PDF sent an
// X-Robots-Tag, an error page and a redirect stub, the AI policy's headers and lines.
func site() []indexability.Record {
	home := recordtest.Page("/")
	post := recordtest.Page("/blog/a/")
	recordtest.Noindex(&post, recordtest.Rule(2, 14))
	docs := recordtest.Page("/docs/guide/")
	recordtest.Block(&docs, indexability.Googlebot, recordtest.RobotsLine(5, "Disallow: /docs/"))
	recordtest.Set(&docs, "googlebot-news", "nosnippet", "nosnippet", recordtest.FrontMatter("robots", "content/docs/guide.md", 3))
	dup := recordtest.Page("/blog/a/print/")
	dup.Canonical.URL, dup.Canonical.Href = "/blog/a/", "/blog/a/"
	dup.Canonical.Status = "noindex"
	pdf := recordtest.Asset("/files/report.pdf")
	recordtest.Set(&pdf, "robots", "follow", "nofollow", recordtest.Rule(3, 18))
	pdf.XRobotsTag = []indexability.Value{{Value: "index, nofollow", Source: indexability.Source{Text: "public/_headers:4", File: "public/_headers", Line: 4}}}
	notFound := indexability.Record{URL: "/404.html", File: "404.html", Source: "layouts/404.html", Class: indexability.ErrorPage}
	alias := indexability.Record{URL: "/old/", File: "old/index.html", Class: indexability.Redirect}
	for _, r := range []*indexability.Record{&home, &post, &docs, &dup} {
		recordtest.Block(r, indexability.Training, recordtest.RobotsLine(12, "Disallow: /"))
		r.AI = indexability.AI{
			Header:        indexability.Value{Value: "train-ai=n, search=y", Source: indexability.Source{Text: "public/_headers:9", File: "public/_headers", Line: 9}},
			ContentUsage:  indexability.Value{Value: "train-ai=n, search=y", Source: indexability.Source{Text: "public/robots.txt:3", File: "public/robots.txt", Line: 3}},
			ContentSignal: indexability.Value{Value: "search=yes, ai-input=yes, ai-train=no", Source: indexability.Source{Text: "public/robots.txt:2", File: "public/robots.txt", Line: 2}},
		}
	}
	return []indexability.Record{notFound, home, post, dup, docs, pdf, alias}
}

// TestGolden writes the site's record and compares it with testdata/site.golden.jsonl, the
// format's example: go test -update rewrites it.
func TestGolden(t *testing.T) {
	got := recordtest.Write(t, site()...)
	golden := filepath.Join("testdata", "site.golden.jsonl")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the record differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	if again := recordtest.Write(t, site()...); !bytes.Equal(again, got) {
		t.Errorf("two writes of the same records differ")
	}
}

// readAll is every record r reads, up to io.EOF; any other error fails t.
func readAll(t *testing.T, r *indexability.Reader) []*indexability.Record {
	t.Helper()
	var recs []*indexability.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
}

// TestRoundTrip reads back what Writer wrote: the same records, in order, then io.EOF, and io.EOF
// again.
func TestRoundTrip(t *testing.T) {
	recs := site()
	data := recordtest.Write(t, recs...)
	r := indexability.NewReader(bytes.NewReader(data), "site.jsonl")
	var urls []string
	for _, rec := range readAll(t, r) {
		urls = append(urls, rec.URL)
		if rec.Agents == nil || rec.Sitemaps == nil || rec.XRobotsTag == nil {
			t.Errorf("%s: a list read as null", rec.URL)
		}
	}
	want := []string{"/", "/404.html", "/blog/a/", "/blog/a/print/", "/docs/guide/", "/files/report.pdf", "/old/"}
	if strings.Join(urls, " ") != strings.Join(want, " ") {
		t.Errorf("urls: got %q, want %q", urls, want)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the end: got %v, want io.EOF", err)
	}
}

// TestEmptySite: a site with no file still has a record, the header alone, which reads as no URL.
func TestEmptySite(t *testing.T) {
	data := recordtest.Write(t)
	if got, want := string(data), `{"format":"robotsmith-indexability","version":1}`+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := indexability.NewReader(bytes.NewReader(data), "x").Next(); err != io.EOF {
		t.Errorf("Next: got %v, want io.EOF", err)
	}
}

// TestWriterRefuses: the writer refuses a URL out of order and a record the reader would refuse,
// writing nothing of it.
func TestWriterRefuses(t *testing.T) {
	noRobots := recordtest.Page("/b/")
	noRobots.Agents = noRobots.Agents[1:]
	publicNoindex := recordtest.Page("/b/")
	recordtest.Noindex(&publicNoindex, recordtest.Default)
	publicNoindex.Class = indexability.Public
	tests := []struct {
		desc  string
		first string
		rec   indexability.Record
		want  string
		order bool
	}{
		{"a URL before the last", "/b/", recordtest.Page("/a/"), `url "/a/": not in URL order: after "/b/"`, true},
		{"a URL twice", "/a/", recordtest.Page("/a/"), `url "/a/": not in URL order: given twice`, true},
		{"a URL with a capital after one without", "/a/", recordtest.Page("/A/"), `url "/A/": not in URL order: after "/a/"`, true},
		{"a relative URL", "/a/", recordtest.Page("b/"), `url "b/" is not a URL path beginning with /`, false},
		{"an unknown class", "/a/", func() indexability.Record { r := recordtest.Page("/b/"); r.Class = "hidden"; return r }(), `url "/b/": unknown class "hidden"`, false},
		{"a page without robots's directives", "/a/", noRobots, `url "/b/": no directives for robots (every crawler)`, false},
		{"a public page that is noindex", "/a/", publicNoindex, `url "/b/": class public, but robots has noindex`, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var b bytes.Buffer
			w := indexability.NewWriter(&b)
			first := recordtest.Page(tc.first)
			if err := w.Write(&first); err != nil {
				t.Fatal(err)
			}
			err := w.Write(&tc.rec)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Write: got %v, want %q", err, tc.want)
			}
			if got := errors.Is(err, indexability.ErrOrder); got != tc.order {
				t.Errorf("errors.Is(err, ErrOrder): got %v, want %v", got, tc.order)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(b.Bytes(), []byte("\n")); n != 2 {
				t.Errorf("got %d lines, want the header and the first record:\n%s", n, b.Bytes())
			}
		})
	}
}

// TestReaderRefuses: a file that is not a whole, ordered record of this version is an error at its
// file and line, and so is every Next after it; nothing past the fault is read.
func TestReaderRefuses(t *testing.T) {
	good := string(recordtest.Write(t, recordtest.Page("/a/"), recordtest.Page("/b/")))
	header, a, b := lines(good)[0], lines(good)[1], lines(good)[2]
	noAgents := a[:strings.Index(a, `"agents":[`)] + `"agents":[` + a[strings.Index(a, `],"sitemaps"`):]
	tests := []struct {
		desc, data string
		want       string
	}{
		{"an empty file", "", `x.jsonl: empty: not a robotsmith indexability record (its first line is the header {"format":"robotsmith-indexability","version":1})`},
		{"no header", a + "\n", `x.jsonl:1: not a robotsmith indexability record: its first line is not the header {"format":"robotsmith-indexability","version":1}`},
		{"another version", `{"format":"robotsmith-indexability","version":2}` + "\n" + a + "\n",
			`x.jsonl:1: a record of version 2; this robotsmith reads version 1 (write both records with the same robotsmith)`},
		{"out of order", header + "\n" + b + "\n" + a + "\n", `x.jsonl:3: url "/a/": not in URL order: after "/b/"`},
		{"twice", header + "\n" + a + "\n" + a + "\n", `x.jsonl:3: url "/a/": not in URL order: given twice`},
		{"an unknown field", header + "\n" + strings.Replace(a, `"home":false`, `"home":false,"hidden":true`, 1) + "\n",
			`x.jsonl:2: unknown field "hidden" (a field this robotsmith does not read)`},
		{"a value of the wrong type", header + "\n" + strings.Replace(a, `"home":false`, `"home":"no"`, 1) + "\n",
			`x.jsonl:2: field "home": a JSON string where the record has a boolean`},
		{"a line cut short", header + "\n" + a[:len(a)/2] + "\n", `x.jsonl:2: the line ends inside a JSON value (a record cut short)`},
		{"trailing data", header + "\n" + a + " {}\n", `x.jsonl:2: "{}" after the record's JSON object`},
		{"not JSON", header + "\n" + "url: /a/\n", `x.jsonl:2: not JSON at byte 1: invalid character 'u' looking for beginning of value`},
		{"an unknown class", header + "\n" + strings.Replace(a, `"class":"public"`, `"class":"secret"`, 1) + "\n", `x.jsonl:2: url "/a/": unknown class "secret"`},
		{"a page without directives", header + "\n" + noAgents + "\n", `x.jsonl:2: url "/a/": no directives for robots (every crawler)`},
		{"a line too long", header + "\n" + a[:len(a)-1] + strings.Repeat(" ", indexability.MaxLine) + "}\n", `x.jsonl:2: a line longer than 16 MiB: not a record robotsmith wrote`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := indexability.NewReader(strings.NewReader(tc.data), "x.jsonl")
			var err error
			for err == nil {
				_, err = r.Next()
			}
			if err == io.EOF || err.Error() != tc.want {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			var fe *frontmatter.Error
			if !errors.As(err, &fe) || fe.File != "x.jsonl" {
				t.Errorf("got %T, want a *frontmatter.Error naming x.jsonl", err)
			}
			if got := problem.CodeOf(err); got != problem.RecordUnreadable {
				t.Errorf("code %s, want %s", got, problem.RecordUnreadable)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("Next after the error: got %v, want the same error", again)
			}
		})
	}
}

// TestReaderTolerates: blank lines, a last line without its line break, and CRLF line breaks read
// as the record they hold.
func TestReaderTolerates(t *testing.T) {
	good := lines(string(recordtest.Write(t, recordtest.Page("/a/"), recordtest.Page("/b/"))))
	tests := []struct{ desc, data string }{
		{"blank lines", good[0] + "\n\n" + good[1] + "\n  \n" + good[2] + "\n\n"},
		{"no final line break", good[0] + "\n" + good[1] + "\n" + good[2]},
		{"CRLF", good[0] + "\r\n" + good[1] + "\r\n" + good[2] + "\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var urls []string
			for _, rec := range readAll(t, indexability.NewReader(strings.NewReader(tc.data), "x")) {
				urls = append(urls, rec.URL)
			}
			if got := strings.Join(urls, " "); got != "/a/ /b/" {
				t.Errorf("got %q, want %q", got, "/a/ /b/")
			}
		})
	}
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// TestIndex is the table of whether a search engine indexes a URL, and why not.
func TestIndex(t *testing.T) {
	type tc struct {
		desc   string
		rec    indexability.Record
		google indexability.Why
		bing   indexability.Why
	}
	page := recordtest.Page
	with := func(url string, f func(*indexability.Record)) indexability.Record {
		r := page(url)
		f(&r)
		return r
	}
	tests := []tc{
		{"a public page", page("/a/"), indexability.InIndex, indexability.InIndex},
		{"noindex for every crawler", with("/a/", func(r *indexability.Record) { recordtest.Noindex(r, recordtest.Default) }), indexability.OutNoindex, indexability.OutNoindex},
		{"noindex for googlebot alone", with("/a/", func(r *indexability.Record) {
			recordtest.Set(r, "googlebot", "index", "noindex", recordtest.Default)
		}), indexability.OutNoindex, indexability.InIndex},
		{"noindex for a crawler the record does not list", with("/a/", func(r *indexability.Record) {
			r.Agents = r.Agents[:1]
		}), indexability.InIndex, indexability.InIndex},
		{"blocked for googlebot", with("/a/", func(r *indexability.Record) {
			recordtest.Block(r, indexability.Googlebot, recordtest.RobotsLine(2, "Disallow: /"))
		}), indexability.OutRobotsTxt, indexability.InIndex},
		{"noindex and blocked: noindex first", with("/a/", func(r *indexability.Record) {
			recordtest.Noindex(r, recordtest.Default)
			recordtest.Block(r, indexability.Bingbot, recordtest.RobotsLine(2, "Disallow: /"))
		}), indexability.OutNoindex, indexability.OutNoindex},
		{"training crawlers blocked", with("/a/", func(r *indexability.Record) {
			recordtest.Block(r, indexability.Training, recordtest.RobotsLine(2, "Disallow: /"))
		}), indexability.InIndex, indexability.InIndex},
		{"canonical to another page", with("/a/", func(r *indexability.Record) { r.Canonical.URL = "/b/" }), indexability.OutCanonical, indexability.OutCanonical},
		{"canonical to another site", with("/a/", func(r *indexability.Record) { r.Canonical.URL = "https://other.example/a/" }), indexability.OutCanonical, indexability.OutCanonical},
		{"an unresolvable canonical", with("/a/", func(r *indexability.Record) { r.Canonical.URL, r.Canonical.Status = "", "unresolvable" }), indexability.InIndex, indexability.InIndex},
		{"no canonical", with("/a/", func(r *indexability.Record) { r.Canonical = indexability.Canonical{} }), indexability.InIndex, indexability.InIndex},
		{"an error page", indexability.Record{URL: "/404.html", Class: indexability.ErrorPage}, indexability.OutClass, indexability.OutClass},
		{"a redirect stub", indexability.Record{URL: "/old/", Class: indexability.Redirect}, indexability.OutClass, indexability.OutClass},
		{"a PDF", recordtest.Asset("/a.pdf"), indexability.InIndex, indexability.InIndex},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := tc.rec.Index(indexability.Googlebot); got != tc.google {
				t.Errorf("Index(googlebot): got %q, want %q", got, tc.google)
			}
			if got := tc.rec.Index(indexability.Bingbot); got != tc.bing {
				t.Errorf("Index(bingbot): got %q, want %q", got, tc.bing)
			}
			if got, want := tc.rec.Indexed(), tc.google == "" || tc.bing == ""; got != want {
				t.Errorf("Indexed: got %v, want %v", got, want)
			}
		})
	}
}

// TestSchema validates every line the golden record has, and lines each breaking the format,
// against schema/record.schema.json.
func TestSchema(t *testing.T) {
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "schema", "record.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	data := recordtest.Write(t, site()...)
	for i, l := range lines(string(data)) {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(l))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("line %d does not match the schema: %v\n%s", i+1, err, l)
		}
	}
	page := lines(string(recordtest.Write(t, recordtest.Page("/a/"))))[1]
	bad := []struct{ desc, old, new string }{
		{"a null list", `"sitemaps":[`, `"sitemaps":null,"x":[`},
		{"an unknown field", `"home":false`, `"home":false,"hidden":true`},
		{"a missing field", `"home":false,`, ``},
		{"an unknown class", `"class":"public"`, `"class":"secret"`},
		{"a relative URL", `"url":"/a/"`, `"url":"a/"`},
		{"a negative count", `"blocked":0`, `"blocked":-1`},
		{"an agent in capitals", `"name":"googlebot"`, `"name":"Googlebot"`},
		{"a source as a string", `"source":{"text":"public/a/index.html:6","file":"public/a/index.html","line":6}`, `"source":"public/a/index.html:6"`},
	}
	for _, tc := range bad {
		t.Run(tc.desc, func(t *testing.T) {
			if !strings.Contains(page, tc.old) {
				t.Fatalf("the record has no %q", tc.old)
			}
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(page, tc.old, tc.new, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if sch.Validate(inst) == nil {
				t.Errorf("the schema accepts a record with %s", tc.desc)
			}
		})
	}
}
