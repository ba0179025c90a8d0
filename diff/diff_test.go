package diff_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/robotsmith/robotsmith/diff"
	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/testsupport/recordtest"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// site is a small blog with docs, as build leaves it: a home page, an about page, a blog of ten
// posts whose list page is noindex, follow (a rule for list pages), ten docs pages, a draft hidden
// by the rule /drafts/**, the tag lists noindex, an error page, an alias and a PDF.
func site() []indexability.Record {
	var recs []indexability.Record
	add := func(r indexability.Record) { recs = append(recs, r) }
	add(recordtest.Page("/"))
	add(recordtest.Page("/about/"))
	blog := recordtest.Page("/blog/")
	recordtest.Noindex(&blog, recordtest.Rule(2, 15))
	add(blog)
	for i := 1; i <= 10; i++ {
		add(recordtest.Page(fmt.Sprintf("/blog/post-%02d/", i)))
	}
	for i := 1; i <= 10; i++ {
		add(recordtest.Page(fmt.Sprintf("/docs/page-%02d/", i)))
	}
	draft := recordtest.Page("/drafts/wip/")
	recordtest.Noindex(&draft, recordtest.Rule(1, 12))
	add(draft)
	tags := recordtest.Page("/tags/")
	recordtest.Noindex(&tags, recordtest.Rule(2, 15))
	add(tags)
	add(indexability.Record{URL: "/404.html", File: "404.html", Source: "layouts/404.html", Class: indexability.ErrorPage})
	add(indexability.Record{URL: "/old-post/", File: "old-post/index.html", Class: indexability.Redirect})
	add(recordtest.Asset("/files/report.pdf"))
	return recs
}

// edit is a copy of recs with f applied to every record whose URL begins with prefix ("*" for
// every URL).
func edit(recs []indexability.Record, prefix string, f func(*indexability.Record)) []indexability.Record {
	recs = slices.Clone(recs)
	for i := range recs {
		r := &recs[i]
		r.Agents = slices.Clone(r.Agents)
		for j := range r.Agents {
			r.Agents[j].From = slices.Clone(r.Agents[j].From)
		}
		r.Sitemaps, r.XRobotsTag = slices.Clone(r.Sitemaps), slices.Clone(r.XRobotsTag)
		if prefix == "*" || strings.HasPrefix(r.URL, prefix) {
			f(r)
		}
	}
	return recs
}

// run compares the records of old and new, rendered in format, with --fail-on failOn.
func run(t *testing.T, old, new []indexability.Record, format diff.Format, failOn string) (string, *diff.Report) {
	t.Helper()
	f, err := diff.ParseFailOn(failOn)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep, err := diff.Run(&out, reader(t, "old.jsonl", old), reader(t, "new.jsonl", new), diff.Options{Format: format, FailOn: f, Version: "test", TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if format == diff.JSON {
		validate(t, out.Bytes())
	}
	return out.String(), rep
}

func reader(t *testing.T, name string, recs []indexability.Record) *indexability.Reader {
	return indexability.NewReader(bytes.NewReader(recordtest.Write(t, recs...)), name)
}

func rules(fs []diff.Failure) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

// TestSelfDiff: a site compared with itself has no change in any format and fails no rule, not
// even any; and neither does one whose values come from other lines (a rule moved down the config,
// a theme's template grown a line): sources are where values come from, not what crawlers see.
func TestSelfDiff(t *testing.T) {
	moved := edit(site(), "*", func(r *indexability.Record) {
		for i := range r.Agents {
			for j := range r.Agents[i].From {
				r.Agents[i].From[j].Source.Line += 3
			}
		}
		r.Canonical.Source.Line++
		for i := range r.Sitemaps {
			r.Sitemaps[i].Line += 2
		}
	})
	moved = edit(moved, "/blog/", func(r *indexability.Record) {
		if r.Class == indexability.Noindex {
			recordtest.Noindex(r, recordtest.Rule(3, 40)) // the same noindex, now from a later rule
		}
	})
	for _, tc := range []struct {
		desc     string
		old, new []indexability.Record
	}{
		{"the same records", site(), site()},
		{"values from other lines", site(), moved},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, f := range []struct {
				format diff.Format
				want   string
			}{
				{diff.Text, "robotsmith diff: no change (28 URLs)\n"},
				{diff.Markdown, "No change: 28 URLs, each told the same as before.\n"},
				{diff.JSON, `"changes": []`},
			} {
				out, rep := run(t, tc.old, tc.new, f.format, "any,robots,home,noindex:0,sitemap:0")
				if !strings.Contains(out, f.want) {
					t.Errorf("format %d: got %q, want it to contain %q", f.format, out, f.want)
				}
				if rep.Summary.Changed != 0 || len(rep.Failures) != 0 {
					t.Errorf("format %d: %d changed, failures %q; want none", f.format, rep.Summary.Changed, rules(rep.Failures))
				}
			}
		})
	}
}

// TestFixtures are the mistakes that take a site out of search, each as the records of the build
// before and after it; each fails the default --fail-on. Their reports in every format are golden
// files: testdata/NAME.{txt,md,json} (go test -update rewrites them). The records the manual's
// examples of robotsmith diff compare are golden files too: the site's, testdata/site.jsonl, and
// the fixture's, testdata/NAME.jsonl.
func TestFixtures(t *testing.T) {
	tests := []struct {
		name, desc string
		new        []indexability.Record
		want       []string // the rules of the default --fail-on it fails
		leave      int      // URLs that leave the index
		why        string   // the first cause's reason
		manual     bool     // the manual's examples compare its records
	}{
		{
			"staging-noindex", "a staging noindex in the home page's template",
			edit(site(), "/", func(r *indexability.Record) {
				if r.URL == "/" {
					recordtest.Noindex(r, recordtest.Tag("robots", "public/index.html", 5))
				}
			}),
			[]string{"home"}, 1, "noindex", true,
		},
		{
			"rule-widened", "a rule widened from /drafts/** to /**",
			edit(site(), "*", func(r *indexability.Record) {
				if r.Class == indexability.Public || r.Class == indexability.File {
					recordtest.Noindex(r, recordtest.Rule(1, 12))
				}
			}),
			[]string{"home", "noindex:10%"}, 23, "noindex", false,
		},
		{
			"robots-blocks-docs", "a robots.txt line that blocks Googlebot from the docs",
			edit(site(), "/docs/", func(r *indexability.Record) {
				recordtest.Block(r, indexability.Googlebot, recordtest.RobotsLine(4, "Disallow: /docs/"))
			}),
			[]string{"noindex:10%"}, 10, "robots.txt", false,
		},
		{
			"canonical-to-noindex", "the posts' canonical moved to the blog's list page, which is noindex",
			edit(site(), "/blog/post-", func(r *indexability.Record) {
				r.Canonical.URL, r.Canonical.Href, r.Canonical.Status = "/blog/", "https://example.org/blog/", "noindex"
			}),
			[]string{"noindex:10%"}, 10, "canonical", false,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []struct {
				format diff.Format
				ext    string
			}{{diff.Text, "txt"}, {diff.Markdown, "md"}, {diff.JSON, "json"}} {
				out, rep := run(t, site(), tc.new, f.format, diff.DefaultFailOn)
				if got := rules(rep.Failures); !slices.Equal(got, tc.want) {
					t.Errorf("%s: fails on %q, want %q", tc.desc, got, tc.want)
				}
				if got := rep.Summary.LeaveIndex; got != tc.leave {
					t.Errorf("%s: %d URLs leave the index, want %d", tc.desc, got, tc.leave)
				}
				if len(rep.Summary.Causes) == 0 || rep.Summary.Causes[0].Why != tc.why {
					t.Errorf("%s: causes %+v, want the first for %s", tc.desc, rep.Summary.Causes, tc.why)
				}
				golden(t, filepath.Join("testdata", tc.name+"."+f.ext), out)
			}
			if tc.manual {
				golden(t, filepath.Join("testdata", "site.jsonl"), string(recordtest.Write(t, site()...)))
				golden(t, filepath.Join("testdata", tc.name+".jsonl"), string(recordtest.Write(t, tc.new...)))
			}
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	testtool.Golden(t, path, []byte(got), *update)
}

// TestItems is the table of single changes: what each becomes as items, with the source of the new
// value.
func TestItems(t *testing.T) {
	type item struct{ aspect, who, old, new, source string }
	page := recordtest.Page("/a/")
	with := func(f func(*indexability.Record)) indexability.Record {
		r := recordtest.Page("/a/")
		f(&r)
		return r
	}
	fm := recordtest.FrontMatter("robots", "content/a.md", 3)
	tests := []struct {
		desc     string
		old, new indexability.Record
		want     []item
		left     string // the search engines whose index it leaves, and why
	}{
		{"noindex for every crawler", page, with(func(r *indexability.Record) { recordtest.Noindex(r, fm) }),
			[]item{{"index", "robots", "index", "noindex", fm.Text}, {"sitemap", "", "listed", "not listed", fm.Text}}, "googlebot bingbot: noindex"},
		{"noindex for googlebot alone", page, with(func(r *indexability.Record) { recordtest.Set(r, "googlebot", "index", "noindex", fm) }),
			[]item{{"index", "googlebot", "index", "noindex", fm.Text}}, "googlebot: noindex"},
		{"public again", with(func(r *indexability.Record) { recordtest.Noindex(r, fm) }), page,
			[]item{{"index", "robots", "noindex", "index", "default"}, {"sitemap", "", "not listed", "listed", "public/sitemap.xml:6"}}, ""},
		{"nofollow", page, with(func(r *indexability.Record) { recordtest.Set(r, "robots", "follow", "nofollow", fm) }),
			[]item{{"follow", "robots", "follow", "nofollow", fm.Text}}, ""},
		{"a snippet limit for googlebot", page, with(func(r *indexability.Record) { recordtest.Set(r, "googlebot", "max-snippet", "max-snippet:50", fm) }),
			[]item{{"snippet", "googlebot", "max-image-preview:large, max-snippet:-1, max-video-preview:-1", "max-image-preview:large, max-snippet:50, max-video-preview:-1", fm.Text}}, ""},
		{"nosnippet for every crawler", page, with(func(r *indexability.Record) {
			for _, a := range []string{"robots", "googlebot", "bingbot"} {
				recordtest.Set(r, a, "nosnippet", "nosnippet", fm)
			}
		}), []item{
			{"snippet", "robots", "", "nosnippet", fm.Text},
			{"snippet", "googlebot", "max-image-preview:large, max-snippet:-1, max-video-preview:-1", "max-image-preview:large, max-snippet:-1, max-video-preview:-1, nosnippet", fm.Text},
			{"snippet", "bingbot", "max-image-preview:large, max-snippet:-1, max-video-preview:-1", "max-image-preview:large, max-snippet:-1, max-video-preview:-1, nosnippet", fm.Text},
		}, ""},
		{"a crawler newly named", page, with(func(r *indexability.Record) { recordtest.Set(r, "googlebot-news", "nosnippet", "nosnippet", fm) }),
			[]item{{"snippet", "googlebot-news", "", "nosnippet", fm.Text}}, ""},
		{"noarchive", page, with(func(r *indexability.Record) { recordtest.Set(r, "robots", "noarchive", "noarchive", fm) }),
			[]item{{"directives", "robots", "", "noarchive", fm.Text}}, ""},
		{"noai", page, with(func(r *indexability.Record) { recordtest.Set(r, "robots", "noai", "noai", recordtest.Rule(0, 30)) }),
			[]item{{"ai", "robots", "", "noai", "rule 0 at robotsmith.yaml:30"}}, ""},
		{"directives in another order", page, with(func(r *indexability.Record) {
			r.Agents[1].Directives = "follow, index, max-video-preview:-1, max-image-preview:large, max-snippet:-1"
		}), nil, ""},
		{"out of the sitemap", page, with(func(r *indexability.Record) { r.Sitemaps = nil }),
			[]item{{"sitemap", "", "listed", "not listed", ""}}, ""},
		{"blocked for bingbot", page, with(func(r *indexability.Record) {
			recordtest.Block(r, indexability.Bingbot, recordtest.RobotsLine(3, "Disallow: /a/"))
		}),
			[]item{{"robots.txt", "bingbot", "may crawl", "may not crawl", "public/robots.txt:3: Disallow: /a/"}}, "bingbot: robots.txt"},
		{"training crawlers blocked", page, with(func(r *indexability.Record) {
			recordtest.Block(r, indexability.Training, recordtest.RobotsLine(9, "Disallow: /"))
		}),
			[]item{{"robots.txt", "training", "may crawl", "20 of 20 may not crawl", "public/robots.txt:9: Disallow: /"}}, ""},
		{"some AI search crawlers blocked", page, with(func(r *indexability.Record) {
			r.RobotsTxt.AISearch.Blocked, r.RobotsTxt.AISearch.Source = 2, recordtest.RobotsLine(9, "Disallow: /")
		}), []item{{"robots.txt", "ai-search", "may crawl", "2 of 6 may not crawl", "public/robots.txt:9: Disallow: /"}}, ""},
		{"canonical to another page", page, with(func(r *indexability.Record) { r.Canonical.URL, r.Canonical.Status = "/b/", "indexable" }),
			[]item{{"canonical", "", "/a/ (self)", "/b/ (indexable)", "public/a/index.html:6"}}, "googlebot bingbot: canonical"},
		{"canonical removed", page, with(func(r *indexability.Record) { r.Canonical = indexability.Canonical{} }),
			[]item{{"canonical", "", "/a/ (self)", "", ""}}, ""},
		{"the canonical's target made noindex", with(func(r *indexability.Record) { r.Canonical.URL, r.Canonical.Status = "/b/", "indexable" }),
			with(func(r *indexability.Record) { r.Canonical.URL, r.Canonical.Status = "/b/", "noindex" }),
			[]item{{"canonical", "", "/b/ (indexable)", "/b/ (noindex)", "public/a/index.html:6"}}, ""},
		// A page made noindex is its own canonical's target made noindex: the change is its
		// directives', said once.
		{"a self-canonical page made noindex", page, with(func(r *indexability.Record) {
			recordtest.Noindex(r, recordtest.Rule(1, 4))
			r.Canonical.Status = "noindex"
		}), []item{{"index", "robots", "index", "noindex", "rule 1 at robotsmith.yaml:4"}, {"sitemap", "", "listed", "not listed", "rule 1 at robotsmith.yaml:4"}},
			"googlebot bingbot: noindex"},
		{"an AI preference", page, with(func(r *indexability.Record) {
			r.AI.Header = indexability.Value{Value: "train-ai=n", Source: indexability.Source{Text: "public/_headers:3"}}
		}), []item{{"ai", "Content-Usage header", "", "train-ai=n", "public/_headers:3"}}, ""},
		{"an X-Robots-Tag", page, with(func(r *indexability.Record) {
			r.XRobotsTag = []indexability.Value{{Value: "noarchive", Source: indexability.Source{Text: "public/_headers:7"}}}
		}), []item{{"x-robots-tag", "", "", "noarchive", "public/_headers:7"}}, ""},
		{"a page made an error page", page, indexability.Record{URL: "/a/", Class: indexability.ErrorPage},
			[]item{{"class", "", "public", "error page", ""}, {"sitemap", "", "listed", "not listed", ""}, {"canonical", "", "/a/ (self)", "", ""}},
			"googlebot bingbot: class"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var changes []*diff.Change
			old, new := reader(t, "old", []indexability.Record{tc.old}), reader(t, "new", []indexability.Record{tc.new})
			if _, err := diff.Compare(old, new, func(c *diff.Change) error { changes = append(changes, c); return nil }); err != nil {
				t.Fatal(err)
			}
			var got []item
			left := ""
			for _, c := range changes {
				for _, it := range c.Items {
					got = append(got, item{string(it.Aspect), it.Who, it.Old, it.New, it.Source.Text})
				}
				if c.LeavesIndex() {
					left = strings.Join(c.Left, " ") + ": " + c.Why
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("items:\n got %q\nwant %q", got, tc.want)
			}
			if left != tc.left {
				t.Errorf("leaves the index: got %q, want %q", left, tc.left)
			}
		})
	}
}

// TestMergeJoin: URLs only one side has are added or removed, in URL order among the others; a
// removed home page fails home.
func TestMergeJoin(t *testing.T) {
	old := []indexability.Record{recordtest.Page("/"), recordtest.Page("/b/"), recordtest.Page("/d/")}
	new := []indexability.Record{recordtest.Page("/a/"), recordtest.Page("/b/"), recordtest.Page("/c/"), recordtest.Page("/e/")}
	var got []string
	f, _ := diff.ParseFailOn(diff.DefaultFailOn)
	sum, err := diff.Compare(reader(t, "old", old), reader(t, "new", new), func(c *diff.Change) error {
		got = append(got, c.URL+" "+string(c.Items[0].Aspect))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/ removed", "/a/ added", "/c/ added", "/d/ removed", "/e/ added"}
	if !slices.Equal(got, want) {
		t.Errorf("changes: got %q, want %q", got, want)
	}
	if sum.Added != 3 || sum.Removed != 2 || sum.Changed != 5 || sum.OldURLs != 3 || sum.NewURLs != 4 || sum.LeaveIndex != 0 {
		t.Errorf("summary: %+v", sum)
	}
	if got := rules(f.Check(sum)); !slices.Equal(got, []string{"home"}) {
		t.Errorf("fails on %q, want home (the home page is removed)", got)
	}
}

// TestBadRecord: a record that cannot be read whole ends the comparison with its error, file and
// line, and nothing is written.
func TestBadRecord(t *testing.T) {
	good := recordtest.Write(t, recordtest.Page("/a/"), recordtest.Page("/b/"))
	lines := strings.SplitAfter(string(good), "\n")
	swapped := lines[0] + lines[2] + lines[1]
	var out bytes.Buffer
	_, err := diff.Run(&out, indexability.NewReader(bytes.NewReader(good), "old.jsonl"), indexability.NewReader(strings.NewReader(swapped), "new.jsonl"), diff.Options{})
	if err == nil || !errors.Is(err, indexability.ErrOrder) || !strings.HasPrefix(err.Error(), "new.jsonl:3: ") {
		t.Errorf("got %v, want new.jsonl:3: ... not in URL order", err)
	}
	if out.Len() > 0 {
		t.Errorf("wrote %q, want nothing", out.String())
	}
}

// TestParseFailOn is the table of --fail-on values: the rules read, or the error.
func TestParseFailOn(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"home,noindex:10%", "home,noindex:10%", ""},
		{" home , noindex:10% ", "home,noindex:10%", ""},
		{"HOME,Noindex:2.5%", "home,noindex:2.5%", ""},
		{"noindex:0", "noindex:0", ""},
		{"sitemap:5,sitemap:1%", "sitemap:5,sitemap:1%", ""},
		{"robots,any", "robots,any", ""},
		{"none", "none", ""},
		{"noindx:10%", "", `unknown rule "noindx"; did you mean "noindex"? (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)`},
		{"hoem", "", `unknown rule "hoem"; did you mean "home"? (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)`},
		{"everything", "", `unknown rule "everything" (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)`},
		{"home,none", "", `none fails on nothing: it cannot go with other rules (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)`},
		{"noindex", "", `noindex needs a threshold: noindex:N (more than N URLs) or noindex:N% (more than N per cent)`},
		{"noindex:ten", "", `noindex: the threshold "ten" is not a count (N) or a percentage (N%)`},
		{"noindex:2.5", "", `noindex: the threshold "2.5" is not a count (N) or a percentage (N%)`},
		{"noindex:-1", "", `noindex: the threshold "-1" is not a count (N) or a percentage (N%)`},
		{"sitemap:150%", "", `sitemap: the threshold "150%" is more than 100%`},
		{"home:1", "", `home takes no threshold, got "home:1"`},
		{"", "", `no rule given (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)`},
		{",", "", `no rule given (rules: home, noindex:N, noindex:N%, sitemap:N, sitemap:N%, robots, any, or none)`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			f, err := diff.ParseFailOn(tc.in)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("got %v, want the error %q", err, tc.err)
				}
				return
			}
			if err != nil || f.String() != tc.want {
				t.Errorf("got %q, %v; want %q", f, err, tc.want)
			}
		})
	}
}

// TestFailOnRules is the table of each rule against changes on either side of its threshold: 28
// URLs, 23 of them in the index and 22 in the sitemap (site()).
func TestFailOnRules(t *testing.T) {
	noindex := func(prefix string, n int) []indexability.Record {
		i := 0
		return edit(site(), prefix, func(r *indexability.Record) {
			if r.Class == indexability.Public && i < n {
				recordtest.Noindex(r, recordtest.Rule(1, 12))
				i++
			}
		})
	}
	outOfSitemap := func(n int) []indexability.Record {
		i := 0
		return edit(site(), "/docs/", func(r *indexability.Record) {
			if i < n {
				r.Sitemaps = nil
				i++
			}
		})
	}
	blocked := func(noindexToo bool) []indexability.Record {
		return edit(site(), "/docs/page-01/", func(r *indexability.Record) {
			if noindexToo {
				recordtest.Noindex(r, recordtest.Rule(1, 12))
				r.Sitemaps = recordtest.Page("/x/").Sitemaps // only robots.txt's change is at stake
			}
			recordtest.Block(r, indexability.Googlebot, recordtest.RobotsLine(4, "Disallow: /docs/page-01/"))
		})
	}
	nofollow := edit(site(), "/about/", func(r *indexability.Record) {
		recordtest.Set(r, "robots", "follow", "nofollow", recordtest.Rule(1, 12))
	})
	tests := []struct {
		desc, failOn string
		new          []indexability.Record
		fails        bool
	}{
		{"home: the home page noindex", "home", noindex("/", 1), true},
		{"home: another page noindex", "home", noindex("/about/", 1), false},
		{"noindex:2 with 2 leaving", "noindex:2", noindex("/docs/", 2), false},
		{"noindex:2 with 3 leaving", "noindex:2", noindex("/docs/", 3), true},
		{"noindex:10% with 2 of 23 leaving (8.7%)", "noindex:10%", noindex("/docs/", 2), false},
		{"noindex:10% with 3 of 23 leaving (13%)", "noindex:10%", noindex("/docs/", 3), true},
		{"noindex:0 with one leaving", "noindex:0", noindex("/docs/", 1), true},
		{"sitemap:1 with 1 leaving", "sitemap:1", outOfSitemap(1), false},
		{"sitemap:1 with 2 leaving", "sitemap:1", outOfSitemap(2), true},
		{"sitemap:10% with 2 of 22 leaving (9.1%)", "sitemap:10%", outOfSitemap(2), false},
		{"sitemap:10% with 3 of 22 leaving (13.6%)", "sitemap:10%", outOfSitemap(3), true},
		{"robots: an indexable page blocked", "robots", blocked(false), true},
		{"robots: a noindex page blocked", "robots", blocked(true), false},
		{"robots: noindex, not blocked", "robots", noindex("/docs/", 3), false},
		{"any: a nofollow", "any", nofollow, true},
		{"the default: a nofollow", diff.DefaultFailOn, nofollow, false},
		{"none: everything noindex", "none", noindex("/", 30), false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, rep := run(t, site(), tc.new, diff.Text, tc.failOn)
			if got := len(rep.Failures) > 0; got != tc.fails {
				t.Errorf("--fail-on %s: fails %v (%+v), want %v", tc.failOn, got, rep.Failures, tc.fails)
			}
		})
	}
}

// TestMarkdown: the Markdown report lists changed URLs up to a pull-request comment's size, then
// counts the rest; the table is collapsed past a few; a value is inert text whatever it holds.
func TestMarkdown(t *testing.T) {
	many := make([]indexability.Record, 0, 2000)
	for i := range 2000 {
		many = append(many, recordtest.Page(fmt.Sprintf("/p/%04d/", i)))
	}
	hidden := edit(many, "*", func(r *indexability.Record) { recordtest.Noindex(r, recordtest.Rule(1, 12)) })
	out, _ := run(t, many, hidden, diff.Markdown, diff.DefaultFailOn)
	if len(out) > 65536 {
		t.Errorf("the report has %d bytes, more than a comment takes", len(out))
	}
	if !strings.Contains(out, "<details><summary>2000 changed URLs</summary>") || !strings.Contains(out, " more (`robotsmith diff --json` lists them all).") {
		t.Errorf("want the table collapsed and the URLs past the budget counted:\n%s", out[len(out)-300:])
	}

	hostile := recordtest.Page("/a|b`c/")
	hostile.Canonical.URL = "/a|b`c/"
	evil := edit([]indexability.Record{hostile}, "*", func(r *indexability.Record) {
		recordtest.Noindex(r, indexability.Source{Text: "tag <meta name=\"robots\"> at <script>alert(1)</script>|x"})
	})
	out, _ = run(t, []indexability.Record{hostile}, evil, diff.Markdown, "none")
	for _, want := range []string{"``/a\\|b`c/``", "`tag <meta name=\"robots\"> at <script>alert(1)</script>\\|x`", "<details open>"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| x") || strings.Contains(out, "\\|x`|") {
		t.Errorf("a value's | ends a cell:\n%s", out)
	}
}

// TestManyChanges: a comparison whose changes pass what Run holds in memory writes them all, in
// order, after the summary.
func TestManyChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 30,000 changes")
	}
	var old []indexability.Record
	for i := range 30000 {
		old = append(old, recordtest.Page(fmt.Sprintf("/p/%05d/", i)))
	}
	new := edit(old, "*", func(r *indexability.Record) { recordtest.Noindex(r, recordtest.Rule(1, 12)) })
	tmp := t.TempDir()
	var b bytes.Buffer
	rep, err := diff.Run(&b, reader(t, "old", old), reader(t, "new", new), diff.Options{TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("Run left %s in its temporary folder", left[0].Name())
	}
	out := b.String()
	if rep.Summary.Changed != 30000 || len(out) < 4<<20 {
		t.Fatalf("%d changes, %d bytes: want 30,000 changes past the memory spool", rep.Summary.Changed, len(out))
	}
	if !strings.HasPrefix(out, "robotsmith diff: 30000 URLs -> 30000 URLs") || strings.Count(out, "  robots: index -> noindex") != 30000 ||
		!strings.Contains(out, "/p/00000/  leaves the index") || !strings.Contains(out, "/p/29999/  leaves the index: noindex\n") {
		t.Errorf("the report lacks the summary or a change:\n%s...", out[:500])
	}
	if strings.Index(out, "/p/00001/  ") > strings.Index(out, "/p/00002/  ") {
		t.Errorf("changes out of order")
	}
}

// validate fails t unless doc is one JSON object that schema/diff.schema.json accepts.
func validate(t *testing.T, doc []byte) {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "schema", "diff.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, doc)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the report does not match schema/diff.schema.json: %v\n%s", err, doc)
	}
}

// TestVisitStops: an error from visit ends the comparison with that error, and the goroutines that
// read the two records ahead end with it.
func TestVisitStops(t *testing.T) {
	var recs []indexability.Record
	for i := range 2000 {
		recs = append(recs, recordtest.Page(fmt.Sprintf("/p/%04d/", i)))
	}
	hidden := edit(recs, "*", func(r *indexability.Record) { recordtest.Noindex(r, recordtest.Rule(1, 12)) })
	before := runtime.NumGoroutine()
	stop := errors.New("enough")
	n := 0
	_, err := diff.Compare(reader(t, "old", recs), reader(t, "new", hidden), func(*diff.Change) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("got %v after %d changes, want %v after 3", err, n, stop)
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > before {
		t.Errorf("%d goroutines, %d before the comparison", got, before)
	}
}
