package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// readRecord reads the record file name whole, failing the test on any line the reader refuses
// (a line out of URL order among them).
func readRecord(t *testing.T, name string) []*indexability.Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := indexability.NewReader(f, name)
	var out []*indexability.Record
	for {
		r, err := rd.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
}

func readBytes(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecordBuild: build --record and check --record write the sample site's indexability record
// in the same run: every line valid against schema/record.schema.json, in URL order, the same bytes
// from two builds of the same input and from check before build, and the home page marked. Check
// after build reads sources at other lines (the pruned sitemap, the rewritten pages) but diff finds
// no change.
func TestRecordBuild(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	siteA, siteB := testtool.SampleSite(t, gen), testtool.SampleSite(t, gen)
	generate(t, gen, siteA)
	out := t.TempDir()
	rec := func(name string) string { return filepath.Join(out, name) }
	steps := []struct {
		desc string
		args []string
	}{
		{"check before build", []string{"check", "--record", rec("check.jsonl"), siteA}},
		{"build", []string{"build", "--no-command", "--record", rec("a.jsonl"), siteA}},
		{"build of a second copy", []string{"build", "--record", rec("b.jsonl"), siteB}},
		{"check after build", []string{"check", "--record", rec("after.jsonl"), siteA}},
	}
	for _, s := range steps {
		r := runCmd(t, s.args...)
		if r.code != 0 && !(s.desc == "check before build" && r.code == 1) {
			t.Fatalf("%s: exit %d\n%s", s.desc, r.code, r.stderr)
		}
	}

	a := readBytes(t, rec("a.jsonl"))
	for _, tc := range []struct{ desc, name string }{
		{"two builds of the same input write the same bytes", "b.jsonl"},
		{"check before build writes build's record", "check.jsonl"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := readBytes(t, rec(tc.name)); !bytes.Equal(got, a) {
				t.Errorf("%s differs from build's record:\n%s", tc.name, firstDiff(string(got), string(a)))
			}
		})
	}

	t.Run("every line matches the schema", func(t *testing.T) {
		sch, err := jsonschema.NewCompiler().Compile(filepath.Join("schema", "record.schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(strings.TrimSuffix(string(a), "\n"), "\n")[1:] {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(l))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("line %d: %v\n%.300s", i+2, err, l)
			}
		}
	})

	t.Run("what the record says of the sample site", func(t *testing.T) {
		byURL := map[string]*indexability.Record{}
		for _, r := range readRecord(t, rec("a.jsonl")) {
			byURL[r.URL] = r
		}
		for _, tc := range []struct {
			url   string
			class indexability.Class
			home  bool
			index bool // in Googlebot's index
		}{
			{"/", indexability.Public, true, true},
			{"/page/2/", indexability.Public, false, true}, // the home's second page: kind home, no home page
			{"/blog/hello-world/", indexability.Public, false, true},
			{"/internal/roadmap/", indexability.Noindex, false, false},
			{"/404.html", indexability.ErrorPage, false, false},
			{"/docs/guide/report.pdf", indexability.File, false, false}, // rule /**/*.pdf: noindex
		} {
			r := byURL[tc.url]
			if r == nil {
				t.Errorf("%s: not in the record", tc.url)
				continue
			}
			if r.Class != tc.class || r.Home != tc.home || (r.Index("googlebot") == indexability.InIndex) != tc.index {
				t.Errorf("%s: got class %q, home %v, googlebot %q; want %q, %v, in the index %v",
					tc.url, r.Class, r.Home, r.Index("googlebot"), tc.class, tc.home, tc.index)
			}
		}
		if r := byURL["/internal/roadmap/"]; r != nil {
			if s := r.SourceOf("robots", "noindex"); s.File == "" || s.Line == 0 {
				t.Errorf("/internal/roadmap/: noindex's source %+v, want a file and line of the site", s)
			}
		}
	})

	t.Run("check after build: no change", func(t *testing.T) {
		r := runCmd(t, "diff", "--fail-on", "any", rec("a.jsonl"), rec("after.jsonl"))
		if r.code != 0 || !strings.Contains(r.stdout, "no change") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 0 and no change", r.code, r.stdout, r.stderr)
		}
	})
}

// TestRecordKeptOnFailure: a run that fails leaves the record file as it was, and no temporary file
// beside it; a record path that is a folder is refused.
func TestRecordKeptOnFailure(t *testing.T) {
	gen := testtool.SampleGenerator(t)
	site := testtool.SampleSite(t, gen)
	generate(t, gen, site)
	cfg := filepath.Join(site, "robotsmith.yaml")
	// A malformed directive in a rule: an error of the configuration, and the build fails whole.
	if err := os.WriteFile(cfg, append(readBytes(t, cfg), []byte("\nrules:\n  - path: /**\n    robots: noindx\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "site.jsonl")
	const old = "the last deploy's record\n"
	if err := os.WriteFile(name, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc string
		args []string
	}{
		{"build", []string{"build", "--no-command", "--record", name, site}},
		{"check", []string{"check", "--record", name, site}},
		{"a folder as the record", []string{"check", "--record", dir, site}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := runCmd(t, tc.args...)
			if r.code != 1 {
				t.Errorf("exit %d, want 1\n%s", r.code, r.stderr)
			}
			if got := string(readBytes(t, name)); got != old {
				t.Errorf("the record: got %.100q, want it as it was", got)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("the record's folder holds %d files, want the record alone", len(entries))
			}
		})
	}
}

// firstDiff is the first line where got and want differ, for a message.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + g[i] + "\n want " + w[i]
		}
	}
	return "line counts: got " + strconv.Itoa(len(g)) + ", want " + strconv.Itoa(len(w))
}
