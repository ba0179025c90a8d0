package sitemap

import (
	"bytes"
	"errors"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// fuzzKeep drops about one URL in three, by a hash of the URL, so that the same URL gets the
// same answer wherever it is asked about.
func fuzzKeep(r Ref) bool {
	h := fnv.New32a()
	h.Write([]byte(r.URL))
	return h.Sum32()%3 != 0
}

// FuzzPrune checks, on any input, that keep-all gives the input back; that Reader and Prune
// agree on errors, which are *Error inside the file; and that a pruned file reads
// back as exactly the entries and alternates kept, and prunes again to itself; and that pruning
// again from the input's Layout gives what Prune gives.
func FuzzPrune(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.input.xml")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err == nil {
			f.Add(b)
		}
	}
	f.Add(genSitemap(3, 2))
	f.Add([]byte("<urlset><url><loc>a</loc></url> <url><loc>b</loc></url>\r\n\t<url><loc>c</loc></url></urlset>"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var all bytes.Buffer
		_, err := Prune(&all, bytes.NewReader(src), func(Ref) bool { return true })
		want, readErr := readAll(src)
		if (err == nil) != (readErr == nil) || err != nil && err.Error() != readErr.Error() {
			t.Fatalf("Prune error %v, Reader error %v", err, readErr)
		}
		if err != nil {
			var fe *Error
			lines := 1 + bytes.Count(src, []byte{'\n'}) + bytes.Count(src, []byte{'\r'})
			if !errors.As(err, &fe) || fe.Line < 1 || fe.Line > lines || fe.Col < 1 {
				t.Fatalf("error %v (%T) is not an *Error inside the file's %d lines", err, err, lines)
			}
			return
		}
		if !bytes.Equal(all.Bytes(), src) {
			t.Fatalf("keep-all changed the input:\n%q\n%q", src, all.Bytes())
		}

		var once bytes.Buffer
		p, err := Prune(&once, bytes.NewReader(src), fuzzKeep)
		if err != nil {
			t.Fatalf("prune: %v", err)
		}
		// Pruned again from the Layout read with keep-all: Prune's output and counts.
		_, l, err := PruneLayout(io.Discard, bytes.NewReader(src), func(Ref) bool { return true })
		if err != nil {
			t.Fatalf("PruneLayout: %v", err)
		}
		var again bytes.Buffer
		if pa, err := l.Prune(&again, src, fuzzKeep); err != nil || pa != p || !bytes.Equal(again.Bytes(), once.Bytes()) {
			t.Fatalf("pruned again from the layout (%+v, %v):\n%q\nwant (%+v):\n%q", pa, err, again.Bytes(), p, once.Bytes())
		}
		if p.Kind != URLSet {
			if !bytes.Equal(once.Bytes(), src) {
				t.Fatalf("a %s was changed:\n%q\n%q", p.Kind, src, once.Bytes())
			}
			return
		}
		// What is left must read back as the entries kept, each with the alternates kept.
		var kept []Entry
		for _, e := range want {
			if e.Loc != "" && r(e.Loc) == false {
				continue
			}
			var alts []Alternate
			for _, a := range e.Alternates {
				if r(a.Href) {
					alts = append(alts, a)
				}
			}
			e.Alternates = alts
			kept = append(kept, e)
		}
		got, err := readAll(once.Bytes())
		if err != nil {
			t.Fatalf("pruned output does not read: %v\n%q", err, once.Bytes())
		}
		if !sameEntries(got, kept) {
			t.Fatalf("pruned output reads as %+v, want %+v\n%q", got, kept, once.Bytes())
		}
		var twice bytes.Buffer
		p, err = Prune(&twice, bytes.NewReader(once.Bytes()), fuzzKeep)
		if err != nil || p.Changed() || !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Fatalf("second prune (%+v, %v) changed\n%q\nto\n%q", p, err, once.Bytes(), twice.Bytes())
		}
	})
}

func r(url string) bool { return fuzzKeep(Ref{URL: url}) }

func readAll(src []byte) ([]Entry, error) {
	var es []Entry
	rd := NewReader(bytes.NewReader(src))
	for {
		e, err := rd.Next()
		if err == io.EOF {
			return es, nil
		}
		if err != nil {
			return nil, err
		}
		es = append(es, e)
	}
}

// sameEntries compares entries by what they say, not where: lines move when lines are removed.
func sameEntries(a, b []Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Loc != b[i].Loc || len(a[i].Alternates) != len(b[i].Alternates) {
			return false
		}
		for j := range a[i].Alternates {
			x, y := a[i].Alternates[j], b[i].Alternates[j]
			if x.Href != y.Href || x.Hreflang != y.Hreflang {
				return false
			}
		}
	}
	return true
}
