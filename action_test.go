package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/robotsmith/robotsmith/testsupport/recordtest"
)

// action is what the tests read of action.yml.
type action struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

// script is the action/ script a step runs, "" for none.
func (s actionStep) script() string {
	if m := regexp.MustCompile(`"\$GITHUB_ACTION_PATH/(action/[a-z]+\.sh)"`).FindStringSubmatch(s.Run); m != nil {
		return m[1]
	}
	return ""
}

func readAction(t *testing.T) action {
	t.Helper()
	raw, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// TestActionYAML reads action.yml as the runner does and checks its wiring: a composite action
// whose every input is used and every input used is declared; every step that runs a script runs
// one of action/ with bash, which reads each variable the step gives it and writes each output a
// later step or the action's outputs read; every script of action/ is run; the actions it uses are
// pinned to a major version.
func TestActionYAML(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using: got %q, want composite", a.Runs.Using)
	}
	raw, _ := os.ReadFile("action.yml")
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(string(raw), -1) {
		used[m[1]] = true
	}
	for name, in := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but no step uses it", name)
		}
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
	}
	for name := range used {
		if _, ok := a.Inputs[name]; !ok {
			t.Errorf("a step uses inputs.%s, which is not declared", name)
		}
	}

	scripts := map[string]string{} // step id -> script text
	ran := map[string]bool{}
	for i, s := range a.Runs.Steps {
		switch {
		case s.Uses != "":
			if !regexp.MustCompile(`^[\w.-]+/[\w./-]+@v\d+$`).MatchString(s.Uses) {
				t.Errorf("step %d uses %q: want owner/action@vN", i, s.Uses)
			}
		case s.Run != "":
			p := s.script()
			if p == "" {
				t.Errorf("step %d runs %q: want bash \"$GITHUB_ACTION_PATH/action/NAME.sh\"", i, s.Run)
				continue
			}
			if s.Shell != "bash" {
				t.Errorf("step %d (%s): shell %q, want bash", i, p, s.Shell)
			}
			text, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("step %d: %v", i, err)
				continue
			}
			ran[p] = true
			if s.ID != "" {
				scripts[s.ID] = string(text)
			}
			for k := range s.Env {
				if !strings.Contains(string(text), "$"+k) && !strings.Contains(string(text), "${"+k) {
					t.Errorf("step %d gives %s to %s, which does not read it", i, k, p)
				}
			}
		default:
			t.Errorf("step %d neither runs nor uses anything", i)
		}
	}
	files, _ := filepath.Glob("action/*.sh")
	for _, f := range files {
		if !ran[filepath.ToSlash(f)] {
			t.Errorf("%s is not run by any step", f)
		}
	}
	// Every steps.ID.outputs.NAME read is written by that step's script.
	for _, m := range regexp.MustCompile(`steps\.([a-z]+)\.outputs\.([a-z-]+)`).FindAllStringSubmatch(string(raw), -1) {
		text, ok := scripts[m[1]]
		if !ok {
			t.Errorf("steps.%s.outputs.%s: no step %s runs a script", m[1], m[2], m[1])
			continue
		}
		if !regexp.MustCompile(`(echo|out) "` + regexp.QuoteMeta(m[2]) + `=`).MatchString(text) {
			t.Errorf("steps.%s.outputs.%s: the step's script never writes %s=", m[1], m[2], m[2])
		}
	}
	for name, out := range a.Outputs {
		if !strings.Contains(out.Value, "steps.") {
			t.Errorf("output %s: value %q reads no step", name, out.Value)
		}
	}
}

// runner is a job's surroundings as the GitHub Actions runner gives them to a step: the files a step
// writes its outputs, path additions and summary to, its temporary folder, GITHUB_ACTIONS=true, and
// robotsmith on PATH.
type runner struct {
	t                           *testing.T
	temp, output, path, summary string
	bin                         string // the folder of the robotsmith built by the test
}

// actionRobotsmith builds robotsmith as install.sh builds it from the action's checkout (so that
// install.sh's own build is found in the build cache) into a folder of t's, and returns the folder.
func actionRobotsmith(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", filepath.Join(dir, "robotsmith"), ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// newRunner is a job's surroundings, with the robotsmith in the folder bin on its PATH.
func newRunner(t *testing.T, bin string) *runner {
	dir := t.TempDir()
	r := &runner{t: t, temp: filepath.Join(dir, "_temp"), output: filepath.Join(dir, "output"),
		path: filepath.Join(dir, "path"), summary: filepath.Join(dir, "step_summary"), bin: bin}
	if err := os.MkdirAll(r.temp, 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

// step runs the action's script with args and the step's env, as a step of action.yml does, and
// returns its exit status, what it printed, and the outputs it wrote (GITHUB_OUTPUT).
func (r *runner) step(script string, env map[string]string, args ...string) (int, string, map[string]string) {
	r.t.Helper()
	os.WriteFile(r.output, nil, 0o644)
	wd, _ := os.Getwd()
	cmd := exec.Command("bash", append([]string{filepath.Join(wd, "action", script)}, args...)...)
	cmd.Dir = r.t.TempDir() // a step runs in the workspace, not in the action's folder
	cmd.Env = append(os.Environ(),
		"GITHUB_ACTIONS=true", "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"RUNNER_TEMP="+r.temp, "GITHUB_OUTPUT="+r.output, "GITHUB_PATH="+r.path,
		"GITHUB_STEP_SUMMARY="+r.summary, "GITHUB_ACTION_PATH="+wd,
		"PATH="+r.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	outputs := map[string]string{}
	raw, _ := os.ReadFile(r.output)
	for l := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			outputs[k] = v
		}
	}
	return code, string(out), outputs
}

// TestActionInstall runs install.sh as the action's first steps do: plan picks a release for a
// release tag of the action (or the version input) and the action's own checkout otherwise; install
// downloads the release archive, checks it against the release's checksums.txt and puts robotsmith
// on the job's PATH, or builds it from the checkout with Go.
func TestActionInstall(t *testing.T) {
	bin := actionRobotsmith(t)
	r := newRunner(t, bin)
	plans := []struct {
		desc, version, ref string
		code               int
		from, v            string
	}{
		{"a branch", "", "main", 0, "source", ""},
		{"a commit", "", "0123456789abcdef0123456789abcdef01234567", 0, "source", ""},
		{"a major tag", "", "v1", 0, "source", ""},
		{"a release tag", "", "v1.2.3", 0, "release", "1.2.3"},
		{"a version input", "1.4.0", "main", 0, "release", "1.4.0"},
		{"a version input with v", "v1.4.0", "v1.2.3", 0, "release", "1.4.0"},
		{"source", "source", "v1.2.3", 0, "source", ""},
		{"not a version", "latest", "main", 1, "", ""},
	}
	for _, tc := range plans {
		t.Run("plan/"+tc.desc, func(t *testing.T) {
			code, out, o := r.step("install.sh", map[string]string{"INPUT_VERSION": tc.version, "ACTION_REF": tc.ref}, "plan")
			if code != tc.code || o["from"] != tc.from || o["version"] != tc.v {
				t.Errorf("exit %d, from=%q version=%q; want %d, %q, %q\n%s", code, o["from"], o["version"], tc.code, tc.from, tc.v, out)
			}
		})
	}

	// A release server with robotsmith 1.2.3's linux_amd64 archive and its checksums.
	exe, err := os.ReadFile(filepath.Join(bin, "robotsmith"))
	if err != nil {
		t.Fatal(err)
	}
	archive := tarGz(t, map[string][]byte{"robotsmith": exe, "README.md": []byte("readme\n"), "LICENSE": []byte("license\n")})
	sum := fmt.Sprintf("%x  robotsmith_1.2.3_linux_amd64.tar.gz\n", sha256.Sum256(archive))
	files := map[string][]byte{
		"/v1.2.3/robotsmith_1.2.3_linux_amd64.tar.gz": archive,
		"/v1.2.3/checksums.txt":                       []byte("0000  robotsmith_1.2.3_darwin_arm64.tar.gz\n" + sum),
		"/v6.6.6/robotsmith_6.6.6_linux_amd64.tar.gz": archive,
		"/v6.6.6/checksums.txt":                       []byte(strings.Repeat("0", 64) + "  robotsmith_6.6.6_linux_amd64.tar.gz\n"),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if b, ok := files[req.URL.Path]; ok {
			w.Write(b)
			return
		}
		http.NotFound(w, req)
	}))
	defer srv.Close()

	installs := []struct {
		desc, from, version string
		code                int
		say                 string
	}{
		{"a release", "release", "1.2.3", 0, "robotsmith_1.2.3_linux_amd64.tar.gz"},
		{"a release whose checksum differs", "release", "6.6.6", 1, "::error title=robotsmith::robotsmith_6.6.6_linux_amd64.tar.gz does not match the release's checksums.txt"},
		{"a release not published", "release", "9.9.9", 22, ""},
		{"the action's checkout", "source", "", 0, "robotsmith devel"},
		{"no plan", "", "", 1, "::error title=robotsmith::install.sh install: INSTALL_FROM is \"\""},
	}
	for _, tc := range installs {
		t.Run("install/"+tc.desc, func(t *testing.T) {
			r := newRunner(t, bin)
			env := map[string]string{"INSTALL_FROM": tc.from, "INSTALL_VERSION": tc.version, "ROBOTSMITH_RELEASES": srv.URL}
			code, out, o := r.step("install.sh", env, "install")
			if code != tc.code || !strings.Contains(out, tc.say) {
				t.Fatalf("exit %d, want %d, and output with %q:\n%s", code, tc.code, tc.say, out)
			}
			if code != 0 {
				if _, err := os.Stat(filepath.Join(r.temp, "robotsmith", "bin", "robotsmith")); err == nil {
					t.Errorf("a failed install left robotsmith in its folder")
				}
				return
			}
			want := filepath.Join(r.temp, "robotsmith", "bin")
			if path, _ := os.ReadFile(r.path); strings.TrimSpace(string(path)) != want {
				t.Errorf("GITHUB_PATH: got %q, want %q", path, want)
			}
			if o["path"] != filepath.Join(want, "robotsmith") {
				t.Errorf("path: got %q", o["path"])
			}
			if v, err := exec.Command(o["path"], "version").Output(); err != nil || !strings.HasPrefix(string(v), "robotsmith ") {
				t.Errorf("the installed robotsmith: %q, %v", v, err)
			}
		})
	}
}

// tarGz is a .tar.gz holding files, as GoReleaser packs a release.
func tarGz(t *testing.T, files map[string][]byte) []byte {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: int64(len(files[n]))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(files[n])
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return b.Bytes()
}

// TestActionRun runs the action's other steps in order, as a pull request's job runs them, with the
// inputs a workflow gives them and the real robotsmith: base.sh finds the base branch's record (an
// input, or the one the cache restored), check.sh checks the site with annotations and records its
// status without failing the step, diff.sh compares the records into the job's summary and a
// report for a comment, and verdict.sh fails the job for either.
func TestActionRun(t *testing.T) {
	r := newRunner(t, actionRobotsmith(t))
	site := plainSite(t)
	dir := t.TempDir()
	home, post := recordtest.Page("/"), recordtest.Page("/blog/a/")
	base := recordtest.File(t, dir, "base.jsonl", home, post)
	recordtest.Noindex(&home, recordtest.Tag("robots", "public/index.html", 5))
	head := recordtest.File(t, dir, "head.jsonl", home, post)

	// base.sh: nothing restored; then a record the cache restored; then one given as an input.
	code, out, o := r.step("base.sh", map[string]string{"INPUT_BASE_RECORD": ""})
	if code != 0 || o["record"] != "" {
		t.Errorf("base.sh with no record: exit %d, record=%q\n%s", code, o["record"], out)
	}
	restored := filepath.Join(r.temp, "robotsmith-record", "record.jsonl")
	writeFile(t, filepath.Dir(restored), "record.jsonl", string(recordtest.Write(t, recordtest.Page("/"))))
	code, out, o = r.step("base.sh", map[string]string{"INPUT_BASE_RECORD": ""})
	if want := filepath.Join(r.temp, "robotsmith-record", "base.jsonl"); code != 0 || o["record"] != want || exists(restored) || !exists(want) {
		t.Errorf("base.sh with a restored record: exit %d, record=%q, want it moved to %s\n%s", code, o["record"], want, out)
	}
	code, _, o = r.step("base.sh", map[string]string{"INPUT_BASE_RECORD": base})
	if code != 0 || o["record"] != base {
		t.Errorf("base.sh with base-record: exit %d, record=%q, want %q", code, o["record"], base)
	}
	code, out, _ = r.step("base.sh", map[string]string{"INPUT_BASE_RECORD": filepath.Join(dir, "none.jsonl")})
	if code != 1 || !strings.Contains(out, "::error title=robotsmith::base-record: ") {
		t.Errorf("base.sh with a missing base-record: exit %d\n%s", code, out)
	}

	// check.sh: with build: false, the plain site before build would change; the step passes and
	// says so in status, writes the record (check --record) and, with sarif: true, check --format
	// sarif's log for the upload step. With build: true (the default), build fixes the site as the
	// deploy would, check finds nothing left, and the record is build's, the same. A missing
	// configuration fails both, and no record is written.
	record := filepath.Join(r.temp, "robotsmith-record", "record.jsonl")
	var records []string
	for _, tc := range []struct {
		desc        string
		env         map[string]string
		status      string
		say, record bool
		sarif       bool
	}{
		{"check alone", map[string]string{"INPUT_SITE": site, "INPUT_CONFIG": "", "INPUT_BUILD": "false", "INPUT_STRICT": "true", "INPUT_SARIF": "true"},
			"1", true, true, true},
		{"build, then check", map[string]string{"INPUT_SITE": site, "INPUT_CONFIG": "", "INPUT_BUILD": "true", "INPUT_STRICT": "true", "INPUT_SARIF": "false"},
			"0", false, true, false},
		{"a missing config", map[string]string{"INPUT_SITE": site, "INPUT_CONFIG": filepath.Join(dir, "none.yaml"), "INPUT_BUILD": "true", "INPUT_STRICT": "false", "INPUT_SARIF": "false"},
			"1", false, false, false},
	} {
		t.Run("check/"+tc.desc, func(t *testing.T) {
			code, out, o := r.step("check.sh", tc.env)
			if code != 0 || o["status"] != tc.status {
				t.Errorf("exit %d, status=%q; want 0 and %s\n%s", code, o["status"], tc.status, out)
			}
			if said := strings.Contains(out, "would change 1 file"); said != tc.say {
				t.Errorf("says it would change 1 file: %v, want %v\n%s", said, tc.say, out)
			}
			if strings.Contains(out, "no indexability record") || strings.Contains(out, "SARIF") {
				t.Errorf("check.sh says this robotsmith cannot write a record or SARIF:\n%s", out)
			}
			switch {
			case !tc.record && o["record"] != "":
				t.Errorf("record=%q, want none", o["record"])
			case tc.record && o["record"] != record:
				t.Errorf("record=%q, want %s", o["record"], record)
			case tc.record:
				records = append(records, string(readBytes(t, record)))
			}
			want := ""
			if tc.sarif {
				want = filepath.Join(r.temp, "robotsmith-record", "check.sarif")
			}
			if o["sarif"] != want {
				t.Errorf("sarif=%q, want %q", o["sarif"], want)
			} else if want != "" {
				validateSARIF(t, readBytes(t, want))
			}
		})
	}
	if len(records) == 2 && records[0] != records[1] {
		t.Errorf("check's record and build's differ:\n%s", firstDiff(records[0], records[1]))
	}

	// The whole chain on a real site: the base branch's record kept (base.sh, as the cache
	// restores it), a change that makes the home page noindex built and recorded (check.sh), and
	// diff.sh fails on it.
	writeFile(t, filepath.Dir(record), "record.jsonl", records[0])
	if _, _, o := r.step("base.sh", map[string]string{"INPUT_BASE_RECORD": ""}); o["record"] == "" {
		t.Fatal("base.sh: no base record")
	}
	staging := plainSite(t)
	replaceIn(t, filepath.Join(staging, "index.html"), "<title>", `<meta name="robots" content="noindex"><title>`)
	if code, out, o := r.step("check.sh", map[string]string{"INPUT_SITE": staging, "INPUT_BUILD": "true", "INPUT_SARIF": "false"}); code != 0 || o["record"] != record {
		t.Fatalf("check.sh on the staging site: exit %d, record=%q\n%s", code, o["record"], out)
	}
	kept := filepath.Join(r.temp, "robotsmith-record", "base.jsonl")
	if code, out, o := r.step("diff.sh", map[string]string{"INPUT_FAIL_ON": "home,noindex:10%", "BASE_RECORD": kept, "NEW_RECORD": record}); code != 0 || o["status"] != "1" ||
		!strings.Contains(out, "::error::robotsmith diff fails on home: the home page / leaves the index: noindex (tag <meta name=\"robots\"> at index.html:4)") {
		t.Errorf("diff.sh over the sites' records: exit %d, status=%q; want 0, 1 and the home page annotated\n%s", code, o["status"], out)
	}
	os.WriteFile(r.summary, nil, 0o644)

	// diff.sh: the home page made noindex fails the default fail-on; the report goes to the job's
	// summary and to a file, and the rule is annotated.
	code, out, o = r.step("diff.sh", map[string]string{"INPUT_FAIL_ON": "home,noindex:10%", "BASE_RECORD": base, "NEW_RECORD": head})
	if code != 0 || o["status"] != "1" {
		t.Fatalf("diff.sh: exit %d, status=%q; want 0 and 1\n%s", code, o["status"], out)
	}
	report, err := os.ReadFile(o["report"])
	if err != nil {
		t.Fatal(err)
	}
	summary, _ := os.ReadFile(r.summary)
	if !strings.HasPrefix(string(report), "### robotsmith diff\n") || string(summary) != string(report) {
		t.Errorf("the report and the job's summary: want the same Markdown\nreport:\n%s\nsummary:\n%s", report, summary)
	}
	if !strings.Contains(out, "::error::robotsmith diff fails on home: the home page / leaves the index: noindex") {
		t.Errorf("diff.sh: no annotation:\n%s", out)
	}
	for _, tc := range []struct {
		desc string
		env  map[string]string
		want string
	}{
		{"no base record", map[string]string{"BASE_RECORD": "", "NEW_RECORD": head}, "skipped"},
		{"no record of this build", map[string]string{"BASE_RECORD": base, "NEW_RECORD": ""}, "skipped"},
		{"fail-on none", map[string]string{"INPUT_FAIL_ON": "none", "BASE_RECORD": base, "NEW_RECORD": head}, "0"},
		{"a bad fail-on", map[string]string{"INPUT_FAIL_ON": "homepage", "BASE_RECORD": base, "NEW_RECORD": head}, "2"},
		{"a record with itself", map[string]string{"BASE_RECORD": base, "NEW_RECORD": base}, "0"},
	} {
		t.Run("diff/"+tc.desc, func(t *testing.T) {
			if code, out, o := r.step("diff.sh", tc.env); code != 0 || o["status"] != tc.want {
				t.Errorf("exit %d, status=%q; want 0 and %q\n%s", code, o["status"], tc.want, out)
			}
		})
	}

	// verdict.sh fails the job for check or the diff, never for a diff skipped.
	for _, tc := range []struct {
		check, diff string
		code        int
	}{{"0", "skipped", 0}, {"0", "0", 0}, {"0", "", 0}, {"1", "skipped", 1}, {"0", "1", 1}, {"0", "2", 1}} {
		t.Run("verdict/check="+tc.check+",diff="+tc.diff, func(t *testing.T) {
			if code, out, _ := r.step("verdict.sh", map[string]string{"CHECK_STATUS": tc.check, "DIFF_STATUS": tc.diff}); code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, out)
			}
		})
	}
}

// TestActionWorkflowExample: the example workflow (action/workflow.example.yml) gives the action only
// inputs it declares and reads only outputs it has.
func TestActionWorkflowExample(t *testing.T) {
	a := readAction(t)
	raw, err := os.ReadFile("action/workflow.example.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if !strings.HasPrefix(s.Uses, "robotsmith/robotsmith@") {
				continue
			}
			id = s.ID
			for k := range s.With {
				if _, ok := a.Inputs[k]; !ok {
					t.Errorf("the example gives the action %s, which it does not take", k)
				}
			}
		}
	}
	if id == "" {
		t.Fatal("the example does not use robotsmith/robotsmith")
	}
	for _, m := range regexp.MustCompile(`steps\.`+id+`\.outputs\.([a-z-]+)`).FindAllStringSubmatch(string(raw), -1) {
		if _, ok := a.Outputs[m[1]]; !ok {
			t.Errorf("the example reads the output %s, which the action does not have", m[1])
		}
	}
}

// TestCIGuideAction: the CI guide (docs/guides/ci.md) shows the example workflow whole, as
// action/workflow.example.yml has it, and its tables give every input of action.yml with its
// default, and every output, and nothing the action does not have.
func TestCIGuideAction(t *testing.T) {
	guide := filepath.Join("docs", "guides", "ci.md")
	example, err := os.ReadFile(filepath.Join("action", "workflow.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := testedBlock(t, guide, "TestCIGuideAction"); got != string(example) {
		t.Errorf("%s shows a workflow that is not action/workflow.example.yml:\n--- the guide:\n%s--- the file:\n%s", guide, got, example)
	}
	a := readAction(t)
	sections := referenceSections(t, guide, 3)
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ([^|]*) \\|")
	for _, tc := range []struct {
		section  string
		declared map[string]string // name -> default, for inputs
	}{
		{"Inputs", func() map[string]string {
			m := map[string]string{}
			for k, in := range a.Inputs {
				m[k] = in.Default
			}
			return m
		}()},
		{"Outputs", func() map[string]string {
			m := map[string]string{}
			for k := range a.Outputs {
				m[k] = ""
			}
			return m
		}()},
	} {
		t.Run(tc.section, func(t *testing.T) {
			sec, ok := sections[tc.section]
			if !ok {
				t.Fatalf("%s has no section \"### %s\"", guide, tc.section)
			}
			rows := map[string]string{}
			for _, m := range row.FindAllStringSubmatch(sec, -1) {
				rows[m[1]] = m[2]
			}
			for name, def := range tc.declared {
				cell, ok := rows[name]
				switch {
				case !ok:
					t.Errorf("%s: ### %s has no row for %s", guide, tc.section, name)
				case tc.section != "Inputs":
				case def == "" && cell != "empty", def != "" && cell != "`"+def+"`":
					t.Errorf("%s: the input %s's default: the guide says %s, action.yml %q", guide, name, cell, def)
				}
			}
			for name := range rows {
				if _, ok := tc.declared[name]; !ok {
					t.Errorf("%s: ### %s has a row for %s, which the action does not have", guide, tc.section, name)
				}
			}
		})
	}
}
