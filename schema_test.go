package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaFile is the JSON schema of every report build, check and explain print with --json;
// diffSchemaFile is diff's.
const (
	schemaFile     = "schema/report.schema.json"
	diffSchemaFile = "schema/diff.schema.json"
)

// schemaPath is schemaFile from the package's folder, for tests that change the working directory;
// diffSchemaPath likewise.
var (
	schemaPath, _     = filepath.Abs(schemaFile)
	diffSchemaPath, _ = filepath.Abs(diffSchemaFile)
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	return compileSchemaFile(t, schemaFile)
}

func compileSchemaFile(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	abs := schemaPath
	if file == diffSchemaFile {
		abs = diffSchemaPath
	}
	sch, err := jsonschema.NewCompiler().Compile(abs)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return sch
}

// validateReport fails t unless report is one JSON object that the schema accepts.
func validateReport(t *testing.T, report []byte) {
	t.Helper()
	validateAgainst(t, schemaFile, report)
}

// validateAgainst fails t unless report is one JSON object that the schema file accepts.
func validateAgainst(t *testing.T, file string, report []byte) {
	t.Helper()
	if err := schemaErr(t, file, report); err != nil {
		t.Errorf("the JSON report does not match %s: %v\n%s", file, err, report)
	}
}

// schemaErr is why the schema file does not accept report; nil when it does.
func schemaErr(t *testing.T, file string, report []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(report))
	if err != nil {
		t.Fatalf("the JSON report is not JSON: %v\n%s", err, report)
	}
	return compileSchemaFile(t, file).Validate(inst)
}

// TestSchemaRejects makes sure the validation can fail: each of these breaks the contract.
func TestSchemaRejects(t *testing.T) {
	good, err := os.ReadFile("testdata/sample-site.build.json")
	if err != nil {
		t.Fatal(err)
	}
	explain, err := os.ReadFile("testdata/sample-site.explain.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc     string
		doc      []byte
		old, new string
	}{
		{"a null list", good, `"errors": []`, `"errors": null`},
		{"an undocumented field", good, `"wrote": true`, `"wrote": true, "written": 1`},
		{"a missing field", good, `"skipped": 1,`, ``},
		{"a negative count", good, `"pages": 60`, `"pages": -1`},
		{"a message as a string", good, `"findings": []`, `"findings": ["a.md:1: x"]`},
		{"an unknown command", good, `"command": "build"`, `"command": "deploy"`},
		{"an explanation without its tags", explain, `"tags": [`, `"tagz": [`},
		{"null agents", explain, `"agents": [`, `"agents": null, "x": [`},
		{"a crawler without its robots.txt answer", explain, `"allowed": false,`, ``},
		{"a crawler with an unknown purpose", explain, `"purposes": [
            "training"`, `"purposes": [
            "scraping"`},
		{"a matching rule as a string", explain, `"rules": [
        {`, `"rules": ["rule 1", {`},
		{"a matching rule without what matched", explain, `"kind": "term",`, ``},
	}
	sch := compileSchema(t)
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if !bytes.Contains(tc.doc, []byte(tc.old)) {
				t.Fatalf("the golden report has no %q", tc.old)
			}
			bad := bytes.Replace(tc.doc, []byte(tc.old), []byte(tc.new), 1)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
			if err != nil {
				t.Fatal(err)
			}
			if sch.Validate(inst) == nil {
				t.Errorf("the schema accepts a report with %s", tc.desc)
			}
		})
	}
}

// TestReferenceDocumentsEveryField: every field a schema names is documented, written as `name`, in
// the manual's page of its format: build's, check's and explain's in docs/reference/json-report.md,
// diff's in that page's section "## robotsmith diff", the indexability record's in
// docs/reference/record.md.
func TestReferenceDocumentsEveryField(t *testing.T) {
	read := func(file string) string {
		b, err := os.ReadFile(filepath.Join("docs", "reference", file))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	report, ok := strings.CutPrefix(read("json-report.md"), "# The JSON report\n")
	if !ok {
		t.Fatal("docs/reference/json-report.md does not begin with \"# The JSON report\"")
	}
	report, diff, ok := strings.Cut(report, "\n## robotsmith diff\n")
	if !ok {
		t.Fatal("docs/reference/json-report.md has no section \"## robotsmith diff\"")
	}
	for _, tc := range []struct {
		schema, page, text string
		min                int // fields at least, lest a broken walk find none
	}{
		{schemaFile, "docs/reference/json-report.md", report, 30},
		{diffSchemaFile, "docs/reference/json-report.md, ## robotsmith diff", diff, 30},
		{"schema/record.schema.json", "docs/reference/record.md", read("record.md"), 20},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			documented := map[string]bool{}
			for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(tc.text, -1) {
				documented[m[1]] = true
			}
			fields := schemaFields(t, tc.schema)
			if len(fields) < tc.min {
				t.Fatalf("found %d fields in %s, want every field of its format", len(fields), tc.schema)
			}
			for _, f := range fields {
				if !documented[f] {
					t.Errorf("%s does not document `%s`", tc.page, f)
				}
			}
		})
	}
}

// schemaFields are the names of every property a JSON Schema file defines, sorted.
func schemaFields(t *testing.T, file string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	var fields []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name := range props {
					if !slices.Contains(fields, name) {
						fields = append(fields, name)
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(schema)
	slices.Sort(fields)
	return fields
}
