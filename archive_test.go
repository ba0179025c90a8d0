package main

import (
	"bytes"
	"os"
	"slices"
	"testing"
)

// The hostile corpus and the manual's fixtures are txtar archives, the go command's format for a
// tree of small files in one text file: a comment, then each file after a line "-- name --". The
// reader is these few lines: the one library that has it (golang.org/x/tools/txtar, which
// go-internal's txtar only forwards to) would bring a module of tools into the build for them.

// archive is a txtar archive: its comment and its files, in order.
type archive struct {
	Comment []byte
	Files   []archiveFile
}

// archiveFile is one file of an archive.
type archiveFile struct {
	Name string
	Data []byte
}

// readArchive reads the archive at path.
func readArchive(path string) (*archive, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseArchive(data), nil
}

// parseArchive reads an archive as txtar does: what comes before the first marker line is the
// comment; each file's data runs to the next marker line, and a file or comment that does not end
// in a line break is given one.
func parseArchive(data []byte) *archive {
	a := &archive{}
	var cur *[]byte = &a.Comment
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if name, ok := archiveMarker(line); ok {
			a.Files = append(a.Files, archiveFile{Name: name})
			cur = &a.Files[len(a.Files)-1].Data
		} else {
			*cur = append(*cur, line...)
			*cur = append(*cur, '\n')
		}
		data = rest
	}
	if a.Comment == nil {
		a.Comment = []byte{}
	}
	for i := range a.Files {
		if a.Files[i].Data == nil {
			a.Files[i].Data = []byte{}
		}
	}
	return a
}

// archiveMarker is the name a marker line "-- name --" gives, and whether line is one.
func archiveMarker(line []byte) (string, bool) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !bytes.HasPrefix(line, []byte("-- ")) || !bytes.HasSuffix(line, []byte(" --")) || len(line) < len("-- x --") {
		return "", false
	}
	name := bytes.TrimSpace(line[len("-- ") : len(line)-len(" --")])
	return string(name), len(name) > 0
}

func TestParseArchive(t *testing.T) {
	for _, tc := range []struct {
		desc    string
		in      string
		comment string
		files   []archiveFile
	}{
		{"comment alone", "hello\nworld", "hello\nworld\n", nil},
		{"files", "note\n-- a.md --\nA\n-- b/c.txt --\nC1\nC2\n", "note\n", []archiveFile{{"a.md", []byte("A\n")}, {"b/c.txt", []byte("C1\nC2\n")}}},
		{"an empty file and a last line without its break", "-- e --\n-- f --\nF", "", []archiveFile{{"e", []byte{}}, {"f", []byte("F\n")}}},
		{"not markers", "--a --\n-- b--\n--  --\n", "--a --\n-- b--\n--  --\n", nil},
		{"a name with spaces kept inside", "-- my page.md --\nx\n", "", []archiveFile{{"my page.md", []byte("x\n")}}},
		{"a marker written with CRLF", "-- a --\r\nx\r\n", "", []archiveFile{{"a", []byte("x\r\n")}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			a := parseArchive([]byte(tc.in))
			if string(a.Comment) != tc.comment {
				t.Errorf("comment = %q, want %q", a.Comment, tc.comment)
			}
			if !slices.EqualFunc(a.Files, tc.files, func(x, y archiveFile) bool { return x.Name == y.Name && bytes.Equal(x.Data, y.Data) }) {
				t.Errorf("files = %q, want %q", a.Files, tc.files)
			}
		})
	}
}

// FuzzParseArchive: whatever the input, reading never fails, and an archive written back in txtar's
// form reads as the same archive.
func FuzzParseArchive(f *testing.F) {
	f.Add([]byte("note\n-- a.md --\nA\n-- b --\nB"))
	f.Add([]byte("-- --\n--  x  --\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a := parseArchive(data)
		var w bytes.Buffer
		w.Write(a.Comment)
		for _, f := range a.Files {
			w.WriteString("-- " + f.Name + " --\n")
			w.Write(f.Data)
		}
		b := parseArchive(w.Bytes())
		if !bytes.Equal(a.Comment, b.Comment) || !slices.EqualFunc(a.Files, b.Files, func(x, y archiveFile) bool { return x.Name == y.Name && bytes.Equal(x.Data, y.Data) }) {
			t.Errorf("written back and read again:\n%q\nwas\n%q", b, a)
		}
	})
}
