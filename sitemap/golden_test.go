package sitemap

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata (and the generators' inputs)")

// goldenKeep is the decision the golden files are pruned with: URLs holding one of these words
// go (the fixtures' noindex notes, tag and category lists, and entries named "drop").
func goldenKeep(ref Ref) bool {
	for _, w := range []string{"notes", "/tags/", "categories", "drop"} {
		if strings.Contains(ref.URL, w) {
			return false
		}
	}
	return true
}

func goldenInputs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.input.xml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.input.xml")
	}
	return files
}

// TestGolden prunes each testdata/X.input.xml with goldenKeep and compares the output with
// X.golden.xml, and an account of what Reader read and Prune asked and left out with
// X.entries.golden. Regenerate with `go test -run TestGolden -update`.
func TestGolden(t *testing.T) {
	for _, in := range goldenInputs(t) {
		base := strings.TrimSuffix(in, ".input.xml")
		t.Run(filepath.Base(base), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			var log strings.Builder
			p, err := Prune(&out, bytes.NewReader(src), func(ref Ref) bool {
				keep := goldenKeep(ref)
				fmt.Fprintf(&log, "keep %s = %v\n", describeRef(ref), keep)
				return keep
			})
			if err != nil {
				t.Fatal(err)
			}
			account := readAccount(t, src) + log.String() + fmt.Sprintf("%+v\n", p)
			checkGolden(t, base+".golden.xml", out.Bytes())
			checkGolden(t, base+".entries.golden", []byte(account))
		})
	}
}

func describeRef(ref Ref) string {
	if ref.Index {
		return fmt.Sprintf("line %d sitemap %s", ref.Line, ref.URL)
	}
	if ref.Alternate {
		return fmt.Sprintf("line %d alternate %s %s (of %s)", ref.Line, ref.Hreflang, ref.URL, ref.Entry)
	}
	return fmt.Sprintf("line %d %s", ref.Line, ref.URL)
}

// readAccount lists what Reader reads in src.
func readAccount(t *testing.T, src []byte) string {
	t.Helper()
	var b strings.Builder
	r := NewReader(bytes.NewReader(src))
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s: line %d %s\n", r.Kind(), e.Line, e.Loc)
		for _, a := range e.Alternates {
			fmt.Fprintf(&b, "\tline %d %s %s\n", a.Line, a.Hreflang, a.Href)
		}
	}
	fmt.Fprintf(&b, "kind %s\n", r.Kind())
	return b.String()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	testtool.Golden(t, path, got, *update)
}

// TestKeepAll checks that pruning with a keep that accepts everything gives every input back
// byte for byte, and that pruning a golden output again changes nothing.
func TestKeepAll(t *testing.T) {
	for _, in := range goldenInputs(t) {
		base := strings.TrimSuffix(in, ".input.xml")
		t.Run(filepath.Base(base), func(t *testing.T) {
			for _, file := range []string{in, base + ".golden.xml"} {
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				if _, err := Prune(&out, bytes.NewReader(src), func(Ref) bool { return true }); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out.Bytes(), src) {
					t.Errorf("%s: keep-all output differs from the input:\n%s", file, out.Bytes())
				}
			}
		})
	}
}

// TestIdempotent checks that pruning a pruned file with the same decision changes nothing.
func TestIdempotent(t *testing.T) {
	for _, in := range goldenInputs(t) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var once, twice bytes.Buffer
			if _, err := Prune(&once, bytes.NewReader(src), goldenKeep); err != nil {
				t.Fatal(err)
			}
			p, err := Prune(&twice, bytes.NewReader(once.Bytes()), goldenKeep)
			if err != nil {
				t.Fatal(err)
			}
			if p.Changed() || !bytes.Equal(once.Bytes(), twice.Bytes()) {
				t.Errorf("second prune changed the output (%+v):\nonce:\n%s\ntwice:\n%s", p, once.Bytes(), twice.Bytes())
			}
		})
	}
}
