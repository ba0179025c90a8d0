package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/robotsmith/robotsmith/pipeline"
	"github.com/robotsmith/robotsmith/problem"
)

// sarifSchemaFile is the JSON Schema of SARIF 2.1.0 as OASIS publishes it with the standard
// (errata 01, oasis-tcs/sarif-spec sarif-2.1/schema/sarif-schema-2.1.0.json): a data file of the
// standard, against which every SARIF log the tests produce is validated (runEnv).
const sarifSchemaFile = "testdata/sarif-schema-2.1.0.json"

var sarifSchemaPath, _ = filepath.Abs(sarifSchemaFile)

// validateSARIF fails t unless log is one SARIF 2.1.0 log that the standard's schema accepts.
func validateSARIF(t *testing.T, log []byte) {
	t.Helper()
	if err := sarifErr(t, log); err != nil {
		t.Errorf("the SARIF log does not match %s: %v\n%s", sarifSchemaFile, err, log)
	}
}

// sarifErr is why the standard's schema does not accept log; nil when it does.
func sarifErr(t *testing.T, log []byte) error {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(sarifSchemaPath)
	if err != nil {
		t.Fatalf("%s: %v", sarifSchemaFile, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("the SARIF log is not JSON: %v\n%s", err, log)
	}
	return sch.Validate(inst)
}

// TestSARIFSchemaRejects makes sure the validation can fail: each of these is no SARIF 2.1.0.
func TestSARIFSchemaRejects(t *testing.T) {
	r := runCmd(t, "check", "--format", "sarif", plainSite(t))
	for _, tc := range []struct{ desc, from, to string }{
		{"another version", `"version": "2.1.0"`, `"version": "2.0.0"`},
		{"a level SARIF has not", `"level": "warning"`, `"level": "fatal"`},
		{"a rule without an id", `"id": "RS0001",`, ``},
		{"a field SARIF has not", `"runs": [`, `"robotsmith": true, "runs": [`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if !strings.Contains(r.stdout, tc.from) {
				t.Fatalf("the log lacks %s", tc.from)
			}
			if sarifErr(t, []byte(strings.Replace(r.stdout, tc.from, tc.to, 1))) == nil {
				t.Error("the schema accepts it")
			}
		})
	}
}

// sarifRead is what the tests read of a SARIF log.
type sarifRead struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID                   string `json:"id"`
					Name                 string `json:"name"`
					ShortDescription     struct{ Text string }
					FullDescription      struct{ Text string }
					HelpURI              string `json:"helpUri"`
					DefaultConfiguration struct{ Level string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
		Results            []sarifResultRead               `json:"results"`
	} `json:"runs"`
}

type sarifResultRead struct {
	RuleID           string `json:"ruleId"`
	RuleIndex        int    `json:"ruleIndex"`
	Level            string `json:"level"`
	Message          struct{ Text string }
	Locations        []sarifLocationRead `json:"locations"`
	RelatedLocations []sarifLocationRead `json:"relatedLocations"`
}

type sarifLocationRead struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
	Message struct{ Text string }
}

// at is the location as "BASE:uri:line".
func (l sarifLocationRead) at() string {
	a := l.PhysicalLocation.ArtifactLocation
	return a.URIBaseID + ":" + a.URI + ":" + strconv.Itoa(l.PhysicalLocation.Region.StartLine)
}

// TestSARIF runs check --format sarif on a plain site with a finding of two sides, a warning
// raised by --strict and a file whose name needs escaping, then with a configuration error, and
// under GitHub Actions: each log is valid SARIF 2.1.0 (runEnv), has a rule for every code of the
// registry with its help and its section of docs/reference/codes.md, and a result for each
// problem at its place, relative to the site's root (the repository's under GitHub Actions), with
// the other side as a related location.
func TestSARIF(t *testing.T) {
	parent := t.TempDir()
	site := filepath.Join(parent, "site")
	page := "<!DOCTYPE html>\n<html><head>\n<meta charset=\"utf-8\">\n<title>A</title>\n</head><body>a</body></html>\n"
	writeFile(t, site, "index.html", page)
	writeFile(t, site, "private/a/index.html", page)
	writeFile(t, site, "Seasonal Offer.html", strings.Replace(page, "<title>", "<meta name=\"robots\" content=\"noodp\">\n<title>", 1))
	writeFile(t, site, "robots.txt", "User-agent: *\nDisallow: /private/\n")
	writeFile(t, site, "robotsmith.yaml", "rules:\n  - path: /private/**\n    robots: noindex\n")
	t.Chdir(parent)

	codes, err := os.ReadFile(filepath.Join(sarifSchemaPath, "..", "..", "docs", "reference", "codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	read := func(r runResult) sarifRead {
		t.Helper()
		var log sarifRead
		if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("not a SARIF log of one run: %v\n%s", err, r.stdout)
		}
		all := problem.All()
		rules := log.Runs[0].Tool.Driver.Rules
		if log.Version != "2.1.0" || log.Runs[0].Tool.Driver.Name != "robotsmith" || len(rules) != len(all) {
			t.Fatalf("version %q, tool %q, %d rules; want 2.1.0, robotsmith and %d rules, one a code", log.Version, log.Runs[0].Tool.Driver.Name, len(rules), len(all))
		}
		for i, c := range all {
			r := rules[i]
			if r.ID != c.Code.String() || r.Name != c.Name || r.ShortDescription.Text != c.Summary || r.FullDescription.Text != c.Help {
				t.Errorf("rule %d: %s %s, want %s %s with its summary and help", i, r.ID, r.Name, c.Code, c.Name)
			}
			heading := "\n## " + c.Code.String() + " " + c.Name + "\n"
			anchor := "docs/reference/codes.md#" + strings.ToLower(c.Code.String()) + "-" + c.Name
			if !strings.HasSuffix(r.HelpURI, anchor) || !bytes.Contains(codes, []byte(heading)) {
				t.Errorf("rule %s: helpUri %s, want one ending %s, the section %q", r.ID, r.HelpURI, anchor, strings.TrimSpace(heading))
			}
			if want := map[problem.Severity]string{problem.Error: "error", problem.Finding: "error", problem.Warning: "warning"}[c.Severity]; r.DefaultConfiguration.Level != want {
				t.Errorf("rule %s: level %s, want %s", r.ID, r.DefaultConfiguration.Level, want)
			}
		}
		for _, res := range log.Runs[0].Results {
			if rules[res.RuleIndex].ID != res.RuleID {
				t.Errorf("result %s: ruleIndex %d is %s's", res.RuleID, res.RuleIndex, rules[res.RuleIndex].ID)
			}
		}
		return log
	}
	result := func(log sarifRead, id string) sarifResultRead {
		t.Helper()
		for _, r := range log.Runs[0].Results {
			if r.RuleID == id {
				return r
			}
		}
		t.Fatalf("no result of %s in %+v", id, log.Runs[0].Results)
		return sarifResultRead{}
	}

	t.Run("findings and warnings", func(t *testing.T) {
		r := runCmd(t, "check", "--strict", "--format", "sarif", "site")
		if r.code != 1 {
			t.Errorf("exit %d, want 1 (a finding); stderr %s", r.code, r.stderr)
		}
		log := read(r)
		if got, want := log.Runs[0].OriginalURIBaseIDs["SITEROOT"].URI, pipeline.FileURI(filepath.ToSlash(site)); got != want {
			t.Errorf("SITEROOT is %q, want %q", got, want)
		}
		f := result(log, "RS0103")
		if f.Level != "error" || len(f.Locations) != 1 || f.Locations[0].at() != "SITEROOT:robotsmith.yaml:3" ||
			len(f.RelatedLocations) != 1 || f.RelatedLocations[0].at() != "SITEROOT:robots.txt:2" ||
			!strings.HasPrefix(f.Message.Text, "/private/a/ is noindex") {
			t.Errorf("the finding: %+v; want an error at robotsmith.yaml:3, robots.txt:2 the other side", f)
		}
		w := result(log, "RS0404")
		if w.Level != "error" || len(w.Locations) != 1 || w.Locations[0].at() != "SITEROOT:Seasonal%20Offer.html:4" {
			t.Errorf("the warning, raised by --strict: %+v; want an error at Seasonal%%20Offer.html:4", w)
		}
	})
	t.Run("without --strict a warning", func(t *testing.T) {
		log := read(runCmd(t, "check", "--format=sarif", "site"))
		if w := result(log, "RS0404"); w.Level != "warning" {
			t.Errorf("the warning: level %s, want warning", w.Level)
		}
	})
	t.Run("under GitHub Actions: relative to the repository", func(t *testing.T) {
		r := runEnv(t, map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": parent}, "check", "--format", "sarif", "site")
		log := read(r)
		if f := result(log, "RS0103"); f.Locations[0].at() != "%SRCROOT%:site/robotsmith.yaml:3" {
			t.Errorf("the finding at %s, want %%SRCROOT%%:site/robotsmith.yaml:3", f.Locations[0].at())
		}
		if got, want := log.Runs[0].OriginalURIBaseIDs["%SRCROOT%"].URI, pipeline.FileURI(filepath.ToSlash(parent)); got != want {
			t.Errorf("%%SRCROOT%% is %q, want %q", got, want)
		}
		if !strings.Contains(r.stderr, "::error file=site/robotsmith.yaml,line=3,title=RS0103 noindex-blocked-by-robots-txt::") {
			t.Errorf("no annotation for the finding:\n%s", r.stderr)
		}
	})
	t.Run("an error", func(t *testing.T) {
		writeFile(t, site, "robotsmith.yaml", "rules:\n  - path: /private/**\n    robots: noindex\nsitemaps: prune\n")
		r := runCmd(t, "check", "--format", "sarif", "site")
		if r.code != 1 || !strings.HasPrefix(r.stderr, `site/robotsmith.yaml:4: unknown key "sitemaps"`) {
			t.Errorf("exit %d, stderr %q; want 1 and the error on stderr", r.code, r.stderr)
		}
		log := read(r)
		if e := result(log, "RS0208"); e.Level != "error" || e.Locations[0].at() != "SITEROOT:robotsmith.yaml:4" {
			t.Errorf("the error: %+v; want it at robotsmith.yaml:4", e)
		}
	})
}
