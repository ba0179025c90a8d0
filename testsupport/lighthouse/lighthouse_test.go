package lighthouse

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRobotsTxtAudit runs the real Lighthouse on a robots.txt with the AI
// preference lines robotsmith writes, and on the same file without them (what
// ai.placement: headers leaves in robots.txt). What each release did:
//
//	Lighthouse 12.8.2: robots.txt is not valid, "2 errors found":
//	  line 3 "Content-Signal: search=yes, ai-input=yes, ai-train=no" Unknown directive
//	  line 4 "Content-Usage: train-ai=n, search=y" Unknown directive
//	Lighthouse 13.5.0: robots.txt is not valid, "1 error found":
//	  line 4 "Content-Usage: train-ai=n, search=y" Unknown directive
//	both: the file without the two lines is valid.
func TestRobotsTxtAudit(t *testing.T) {
	const (
		signal = "Content-Signal: search=yes, ai-input=yes, ai-train=no"
		usage  = "Content-Usage: train-ai=n, search=y"
	)
	withAI := "# robotsmith: begin\nUser-agent: *\n" + signal + "\n" + usage + "\nDisallow:\n\nUser-agent: GPTBot\nDisallow: /\n# robotsmith: end\n"
	withoutAI := "# robotsmith: begin\nUser-agent: *\nDisallow:\n\nUser-agent: GPTBot\nDisallow: /\n# robotsmith: end\n"
	unknown := func(line int, content string) RobotsTxtError {
		return RobotsTxtError{Line: line, Content: content, Message: "Unknown directive"}
	}
	for _, tc := range []struct {
		desc    string
		release Release
		robots  string
		want    []RobotsTxtError // nil: the audit passes
	}{
		{"12: Content-Signal and Content-Usage both unknown", V12, withAI, []RobotsTxtError{unknown(3, signal), unknown(4, usage)}},
		{"12: without them the file passes", V12, withoutAI, nil},
		{"13: Content-Usage unknown, Content-Signal known", V13, withAI, []RobotsTxtError{unknown(4, usage)}},
		{"13: without them the file passes", V13, withoutAI, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><h1>Home</h1></body></html>`)
			write(t, filepath.Join(dir, "robots.txt"), tc.robots)
			res := Run(t, dir, Options{Release: tc.release, Audits: []string{"robots-txt"}})
			if res.Version != tc.release.Version() {
				t.Errorf("Lighthouse reported version %q, want %q", res.Version, tc.release.Version())
			}
			a, ok := res.Audits["robots-txt"]
			if !ok {
				t.Fatalf("no robots-txt audit in the report; audits: %v", res.Audits)
			}
			if got, want := a.Passed(), tc.want == nil; got != want {
				t.Errorf("robots-txt passed = %v (%q, %q), want %v", got, a.Title, a.DisplayValue, want)
			}
			if got := a.RobotsTxtErrors(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("robots-txt errors:\ngot  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestParse reads a report as Lighthouse 13.5.0 wrote it (cut to the fields Result holds).
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		desc    string
		json    string
		want    []RobotsTxtError
		passed  bool
		seo     float64
		wantErr bool
	}{
		{
			desc: "a failed robots-txt audit",
			json: `{"lighthouseVersion":"13.5.0","audits":{"robots-txt":{"id":"robots-txt","title":"robots.txt is not valid","score":0,"scoreDisplayMode":"binary","displayValue":"1 error found","details":{"type":"table","headings":[],"items":[{"index":"3","line":"Content-Usage: train-ai=n","message":"Unknown directive"}]}}},"categories":{"seo":{"score":0.85}}}`,
			want: []RobotsTxtError{{Line: 3, Content: "Content-Usage: train-ai=n", Message: "Unknown directive"}},
			seo:  0.85,
		},
		{
			desc:   "a passed audit without details",
			json:   `{"lighthouseVersion":"13.5.0","audits":{"robots-txt":{"id":"robots-txt","score":1,"scoreDisplayMode":"binary"}},"categories":{"seo":{"score":1}}}`,
			passed: true,
			seo:    1,
		},
		{
			desc:    "a runtime error",
			json:    `{"lighthouseVersion":"13.5.0","runtimeError":{"code":"FAILED_DOCUMENT_REQUEST","message":"net::ERR_CONNECTION_REFUSED"},"audits":{"robots-txt":{"id":"robots-txt","score":null}}}`,
			wantErr: true,
		},
		{desc: "no audits", json: `{"lighthouseVersion":"13.5.0"}`, wantErr: true},
		{desc: "not JSON", json: `Runtime error encountered`, wantErr: true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			res, err := parse([]byte(tc.json))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parse error = %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			a := res.Audits["robots-txt"]
			if got := a.Passed(); got != tc.passed {
				t.Errorf("Passed() = %v, want %v", got, tc.passed)
			}
			if got := a.RobotsTxtErrors(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("RobotsTxtErrors() = %+v, want %+v", got, tc.want)
			}
			if got := res.Categories["seo"]; got != tc.seo {
				t.Errorf("seo score = %v, want %v", got, tc.seo)
			}
		})
	}
}

func write(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
