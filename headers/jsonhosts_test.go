package headers

// Vercel and Firebase Hosting have no local server that runs offline (vercel dev needs a login
// and a linked project; the Firebase emulator a project), so their files are checked against each
// host's documented matching: the model of it (vercelSourceRegexp, firebaseGlobRegexp, Go's RE2
// for a regex) is first held to the documents' own examples, then every file of a site is
// requested, in each encoding a client may use, against the written entries.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/hosttest"
)

// TestVercelSourceDocs holds the model of Vercel's source matching to documented examples.
// Vercel compiles a source with path-to-regexp 6.1.0 and the options strict and sensitive
// (@vercel/routing-utils superstatic.ts, sourceToRegex; vendor/path-to-regexp/vendor.md), so the
// cases are the path-to-regexp v6.1.0 Readme.md's, with what strict (no optional trailing '/')
// and sensitive (case matters) change marked, and the vercel.json examples of Vercel's docs
// (vercel.com/docs/project-configuration#headers: "/service-worker.js", "/(.*)", "/:path*";
// vercel.com/kb/guide/how-to-configure-the-cache-control-response-header-in-vercel-projects:
// "/about.js").
func TestVercelSourceDocs(t *testing.T) {
	tests := []struct {
		source string
		match  []string
		miss   []string
	}{
		// Readme: regexp = /^\/foo\/([^\/]+?)\/?$/i; strict drops \/?, sensitive the i.
		{"/foo/:bar", []string{"/foo/x", "/foo/a%20b"}, []string{"/foo/x/", "/foo/x/y", "/Foo/x", "/foo"}},
		// Readme: "/test/route" gives 'test', 'route'.
		{"/:foo/:bar", []string{"/test/route"}, []string{"/test", "/test/route/x"}},
		// Readme: custom matching parameters.
		{`/icon-:foo(\d+).png`, []string{"/icon-123.png"}, []string{"/icon-abc.png"}},
		{"/(user|u)", []string{"/u", "/user"}, []string{"/users"}},
		// Readme: custom prefix and suffix.
		{"/:attr1?{-:attr2}?{-:attr3}?", []string{"/test", "/test-test", "/test-a-b"}, nil},
		// Readme: unnamed parameters.
		{"/:foo/(.*)", []string{"/test/route", "/test/a/b"}, []string{"/test"}},
		// Readme: optional.
		{"/:foo/:bar?", []string{"/test", "/test/route"}, nil},
		// Readme: an escaped '?' is the character.
		{`/search/:tableName\?useIndex=true&term=amazing`, []string{"/search/people?useIndex=true&term=amazing"}, []string{"/search/people?term=amazing&useIndex=true"}},
		// Readme: zero or more; "/" matches only without strict (its optional trailing '/').
		{"/:foo*", []string{"", "/bar/baz"}, []string{"/"}},
		// Readme: one or more.
		{"/:foo+", []string{"/bar/baz"}, []string{"/"}},
		// Vercel's docs.
		{"/service-worker.js", []string{"/service-worker.js"}, []string{"/service-worker.jsx", "/Service-Worker.js", "/service-worker.js/"}},
		{"/(.*)", []string{"/", "/a", "/a/b.pdf"}, nil},
		{"/:path*", []string{"/a", "/a/b"}, nil},
		{"/about.js", []string{"/about.js"}, []string{"/aboutxjs", "/about"}},
	}
	for _, tc := range tests {
		t.Run(tc.source, func(t *testing.T) {
			re, err := vercelSourceRegexp(tc.source)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tc.match {
				if !re.MatchString(p) {
					t.Errorf("%s (%s) does not match %q, want a match", tc.source, re, p)
				}
			}
			for _, p := range tc.miss {
				if re.MatchString(p) {
					t.Errorf("%s (%s) matches %q, want none", tc.source, re, p)
				}
			}
		})
	}
	for _, bad := range []string{"/a(?b)", "/a:", "/(?x)", "/a*", "/((b)c)", "/{a"} {
		if re, err := vercelSourceRegexp(bad); err == nil {
			t.Errorf("vercelSourceRegexp(%q) = %s, want path-to-regexp's error", bad, re)
		}
	}
}

// TestFirebaseGlobDocs holds the model of Firebase's glob matching to documented examples:
// firebase.google.com/docs/hosting/full-config#headers ("**/*.@(eot|otf|ttf|ttc|woff|font.css)",
// "**/*.@(jpg|jpeg|gif|png)", "404.html") and #glob_pattern_matching (the emulator reads a glob
// with minimatch, after superstatic's slasher puts a '/' in front).
func TestFirebaseGlobDocs(t *testing.T) {
	tests := []struct {
		glob  string
		match []string
		miss  []string
	}{
		{"**/*.@(eot|otf|ttf|ttc|woff|font.css)", []string{"/a.woff", "/fonts/x/y.ttf", "/s/x.font.css"}, []string{"/a.woff2", "/a.css", "/s/font.css"}},
		{"**/*.@(jpg|jpeg|gif|png)", []string{"/a.png", "/img/b.jpeg"}, []string{"/a.PNG", "/a.png/x"}},
		{"404.html", []string{"/404.html"}, []string{"/x/404.html"}},
		{"**", []string{"/", "/a", "/a/b"}, nil},
		{"/api/**", []string{"/api/", "/api/x/y"}, []string{"/apix"}},
		{"/files/{a,b}.pdf", []string{"/files/a.pdf", "/files/b.pdf"}, []string{"/files/c.pdf"}},
		{"/img/?.[pj]ng", []string{"/img/a.png", "/img/b.jng"}, []string{"/img/ab.png"}},
	}
	for _, tc := range tests {
		t.Run(tc.glob, func(t *testing.T) {
			re, err := firebaseGlobRegexp(tc.glob)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tc.match {
				if !re.MatchString(p) {
					t.Errorf("%s (%s) does not match %q", tc.glob, re, p)
				}
			}
			for _, p := range tc.miss {
				if re.MatchString(p) {
					t.Errorf("%s (%s) matches %q", tc.glob, re, p)
				}
			}
		})
	}
	if _, err := firebaseGlobRegexp("/!(a).pdf"); err == nil {
		t.Error("!(...) is modelled, want errNotModelled")
	}
}

// jsonSite is a site for the JSON hosts: serverSite's names (each character a client may encode
// or not), a page served at its folder's URL, and one under a folder that the host may also
// serve without the trailing '/'.
func jsonSite() []File {
	var files []File
	for _, s := range serverSite() {
		files = append(files, File{Path: s.url, Lines: s.lines})
	}
	return append(files, File{Path: "/blog/a/", Lines: ls(g("noindex"))}, File{Path: "/blog/b/"})
}

// hostRule is an entry of a written file, as the host reads it: its test of a request's path and
// the headers it sets.
type hostRule struct {
	match   func(string) bool
	headers map[string]string
}

// readHostRules reads the entries of a written vercel.json or firebase.json.
func readHostRules(t *testing.T, data []byte, firebase bool) []hostRule {
	t.Helper()
	type site struct {
		Headers []map[string]any `json:"headers"`
	}
	var doc struct {
		Headers []map[string]any `json:"headers"`
		Hosting json.RawMessage  `json:"hosting"`
	}
	if err := json.Unmarshal(withoutComments(data), &doc); err != nil {
		t.Fatalf("the written file is not JSON: %v\n%s", err, data)
	}
	entries := doc.Headers
	if firebase {
		// hosting is one site, or a list of them: the entries of all (one has robotsmith's).
		var sites []site
		if err := json.Unmarshal(doc.Hosting, &sites); err != nil {
			var one site
			if err := json.Unmarshal(doc.Hosting, &one); err != nil {
				t.Fatalf("hosting: %v", err)
			}
			sites = []site{one}
		}
		entries = nil
		for _, s := range sites {
			entries = append(entries, s.Headers...)
		}
	}
	var out []hostRule
	for _, e := range entries {
		var test func(string) bool
		var err error
		if firebase {
			test, _, err = firebaseMatcher(e)
		} else {
			test, _, err = vercelMatcher(e)
		}
		if err != nil {
			t.Fatalf("an entry the host could not read: %v", err)
		}
		r := hostRule{match: test, headers: map[string]string{}}
		for _, h := range e["headers"].([]any) {
			kv := h.(map[string]any)
			r.headers[strings.ToLower(kv["key"].(string))] = kv["value"].(string)
		}
		out = append(out, r)
	}
	return out
}

// jsonRequestForms are the paths a JSON host may compare for a request of p: the forms a client
// sends (requestForms), and p decoded, in case the host decodes before matching. A folder's page
// is also requested at its index.html and without the trailing '/'.
func jsonRequestForms(p string) []string {
	paths := []string{p}
	if strings.HasSuffix(p, "/") {
		paths = append(paths, p+"index.html")
		if p != "/" {
			paths = append(paths, strings.TrimSuffix(p, "/"))
		}
	}
	var out []string
	for _, q := range paths {
		out = append(out, requestForms(q)...)
		if !strings.Contains(q, "%") {
			out = append(out, q)
		}
	}
	return out
}

// checkJSONHost requests every file of files against the written entries, applied as the host
// applies them (every matching entry in order, a later value of a header replacing an earlier
// one): a file with lines gets exactly one X-Robots-Tag entry of robotsmith's with their meaning,
// a default file none, and every path Content-Usage.
func checkJSONHost(t *testing.T, rules []hostRule, files []File, usage string) {
	t.Helper()
	for _, f := range files {
		want := strings.Join(written(f.Lines), ", ")
		for _, raw := range jsonRequestForms(f.Path) {
			got := map[string]string{}
			robots := 0
			for _, r := range rules {
				if !r.match(raw) {
					continue
				}
				for k, v := range r.headers {
					got[k] = v
				}
				if _, ok := r.headers["x-robots-tag"]; ok {
					robots++
				}
			}
			if g := got["x-robots-tag"]; (g == "") != (want == "") || !Interpret(g).Equal(Interpret(want)) {
				t.Errorf("%s: X-Robots-Tag %q, want the meaning of %q", raw, g, want)
			}
			if want != "" && robots != 1 {
				t.Errorf("%s: matched by %d X-Robots-Tag entries, want exactly one", raw, robots)
			}
			if got["content-usage"] != usage {
				t.Errorf("%s: Content-Usage %q, want %q", raw, got["content-usage"], usage)
			}
		}
	}
}

func TestVercelMatching(t *testing.T) {
	files := jsonSite()
	r, err := Vercel(List(files), Options{ContentUsage: serverUsage})
	if err != nil {
		t.Fatal(err)
	}
	checkJSONHost(t, readHostRules(t, r.Data, false), files, serverUsage)
}

func TestFirebaseMatching(t *testing.T) {
	files := jsonSite()
	existing := []byte(`{"hosting": {"public": "public"}}`)
	r, err := Firebase(List(files), Options{ContentUsage: serverUsage, Existing: existing})
	if err != nil {
		t.Fatal(err)
	}
	checkJSONHost(t, readHostRules(t, r.Data, true), files, serverUsage)
}

// TestEitherForm checks the patterns against the encodings a client may send, and that no file's
// pattern matches another file's request: "100%.pdf" and "100%25.pdf" stay apart.
func TestEitherForm(t *testing.T) {
	paths := []string{"/a b.pdf", "/100%.pdf", "/100%25.pdf", "/résumé.pdf", "/a+b.pdf", "/x[1](2)'q'.pdf", "/UP.pdf", "/up.pdf"}
	res := make([]*regexp.Regexp, len(paths))
	for i, p := range paths {
		res[i] = regexp.MustCompile("^" + eitherForm(p) + "$")
	}
	for i, p := range paths {
		for _, raw := range append(requestForms(p), hosttest.EncodePath(p)) {
			for j, re := range res {
				if got, want := re.MatchString(raw), i == j; got != want {
					t.Errorf("the pattern of %q matches %q (a request for %q): %v, want %v", paths[j], raw, p, got, want)
				}
			}
		}
	}
}

// TestJSONPatternLimits checks that a group of files too long for one entry is split, each entry
// within the host's limit.
func TestJSONPatternLimits(t *testing.T) {
	var files []File
	for i := 0; i < 2000; i++ {
		files = append(files, File{Path: fmt.Sprintf("/photos/%04d/a-long-file-name-for-the-limit.jpg", i), Lines: ls(g("noindex"))})
	}
	r, err := Vercel(List(files), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Headers []hostEntry }
	if err := json.Unmarshal(r.Data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Headers) < 2 {
		t.Errorf("%d entries, want the files split over several", len(doc.Headers))
	}
	for _, e := range doc.Headers {
		if len(e.Source) > VercelMaxSource {
			t.Errorf("a source of %d characters, vercel allows %d", len(e.Source), VercelMaxSource)
		}
	}
	checkJSONHost(t, readHostRules(t, r.Data, false), files, "")
}
