package sitemap

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutPrune prunes each testdata input and a generated sitemap with a set of decisions,
// once with Prune and once again from the Layout PruneLayout read (with other decisions than it
// was read with, as watch mode's next batch has): the output, the counts and the questions asked
// of keep must be Prune's, byte for byte.
func TestLayoutPrune(t *testing.T) {
	inputs := map[string][]byte{"generated": genSitemap(300, 3)}
	for _, in := range goldenInputs(t) {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(strings.TrimSuffix(in, ".input.xml"))] = src
	}
	n := 0
	keeps := []struct {
		desc string
		keep func(Ref) bool
	}{
		{"keep all", func(Ref) bool { return true }},
		{"golden", goldenKeep},
		{"drop all", func(Ref) bool { return false }},
		{"drop every other", func(Ref) bool { n++; return n%2 == 0 }},
		{"drop alternates", func(r Ref) bool { return !r.Alternate }},
		{"drop one", func(r Ref) bool { return !strings.HasSuffix(r.URL, "7/") }},
	}
	for name, src := range inputs {
		for _, read := range keeps {
			for _, again := range keeps {
				t.Run(name+"/"+read.desc+"/then "+again.desc, func(t *testing.T) {
					n = 0
					var first bytes.Buffer
					pl, l, err := PruneLayout(&first, bytes.NewReader(src), read.keep)
					if err != nil {
						t.Fatal(err)
					}
					n = 0
					var want bytes.Buffer
					wantLog := logged(again.keep)
					pw, err := Prune(&want, bytes.NewReader(src), wantLog.keep)
					if err != nil {
						t.Fatal(err)
					}
					n = 0
					var got bytes.Buffer
					gotLog := logged(again.keep)
					pg, err := l.Prune(&got, src, gotLog.keep)
					if err != nil {
						t.Fatal(err)
					}
					if got.String() != want.String() {
						t.Errorf("pruned again from the layout:\n%s\nwant (Prune):\n%s", got.String(), want.String())
					}
					if pg != pw {
						t.Errorf("counts: got %+v, want %+v", pg, pw)
					}
					if gotLog.String() != wantLog.String() {
						t.Errorf("keep was asked:\n%s\nwant:\n%s", gotLog.String(), wantLog.String())
					}
					if pl.Kind != pw.Kind {
						t.Errorf("PruneLayout's kind %v, Prune's %v", pl.Kind, pw.Kind)
					}
				})
			}
		}
	}
}

// TestLayoutOtherBytes: bytes of another length than the layout's are an error, not a sitemap
// cut up at the wrong places.
func TestLayoutOtherBytes(t *testing.T) {
	src := genSitemap(3, 0)
	_, l, err := PruneLayout(new(bytes.Buffer), bytes.NewReader(src), func(Ref) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc string
		src  []byte
	}{
		{"shorter", src[:len(src)-1]},
		{"longer", append(bytes.Clone(src), ' ')},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if _, err := l.Prune(new(bytes.Buffer), tc.src, func(Ref) bool { return true }); err == nil {
				t.Errorf("got no error, want one")
			}
		})
	}
}

// keepLog records the questions asked of keep.
type keepLog struct {
	strings.Builder
	keep func(Ref) bool
}

func logged(keep func(Ref) bool) *keepLog {
	l := &keepLog{}
	l.keep = func(r Ref) bool {
		k := keep(r)
		fmt.Fprintf(l, "%+v = %v\n", r, k)
		return k
	}
	return l
}
