package safefs

import (
	"errors"
	"hash/crc32"
	"strings"
	"testing"
)

// committed builds a journal text with a valid commit record.
func committed(body string) string {
	text := journalHeader + "\n" + body
	n := strings.Count(body, "\nplan ") + map[bool]int{true: 1}[strings.HasPrefix(body, "plan ")]
	return text + commitRecord(n, crc32.ChecksumIEEE([]byte(text)))
}

var journalTests = []struct {
	desc      string
	text      string
	tmps      int
	plan      int
	committed bool
	err       string // a substring of the *JournalError; "" none
}{
	{"header only", journalHeader + "\n", 0, 0, false, ""},
	{"tmp records", journalHeader + "\ntmp 0 \"a.html\"\ntmp 1 \"b/c.html\"\n", 2, 0, false, ""},
	{"cut short", journalHeader + "\ntmp 0 \"a.html\"\ntmp 1 \"b/c.ht", 1, 0, false, ""},
	{"plan without commit", journalHeader + "\ntmp 0 \"a.html\"\nplan 0 old 12 34 \"a.html\"\n", 1, 1, false, ""},
	{"committed", committed("tmp 0 \"a.html\"\ntmp 1 \"n\\n q.html\"\nplan 0 old 12 34 \"a.html\"\nplan 1 new 13 35 \"n\\n q.html\"\n"), 2, 2, true, ""},
	{"commit record cut short", journalHeader + "\nplan 0 old 12 34 \"a.html\"\ncommit 1 0000", 0, 1, false, ""},
	{"bad checksum", journalHeader + "\nplan 0 old 12 34 \"a.html\"\ncommit 1 00000000\n", 0, 0, false, "does not match"},
	{"wrong count", journalHeader + "\nplan 0 old 12 34 \"a.html\"\ncommit 2 00000000\n", 0, 0, false, "does not match"},
	{"empty: killed as it was created", "", 0, 0, false, ""},
	{"header cut short", journalHeader[:7], 0, 0, false, ""},
	{"a first line cut short that is no header", "hello", 0, 0, false, "not a robotsmith journal"},
	{"not a journal", "hello\n", 0, 0, false, "not a robotsmith journal"},
	{"a long first line is quoted short", strings.Repeat("x", 5000) + "\n", 0, 0, false, "not a robotsmith journal"},
	{"unknown record", journalHeader + "\nrm -rf /\n", 0, 0, false, "unknown record"},
	{"path outside", journalHeader + "\ntmp 0 \"../etc/passwd\"\n", 0, 0, false, "not a file inside"},
	{"absolute path", journalHeader + "\ntmp 0 \"/etc/passwd\"\n", 0, 0, false, "not a file inside"},
	{"our own name", journalHeader + "\ntmp 0 \"x/.robotsmith-journal\"\n", 0, 0, false, "not a file inside"},
	{"unquoted name", journalHeader + "\ntmp 0 a.html\n", 0, 0, false, "bad name"},
	{"negative number", journalHeader + "\ntmp -1 \"a.html\"\n", 0, 0, false, "bad number"},
	{"twice", journalHeader + "\ntmp 1 \"a.html\"\ntmp 1 \"b.html\"\n", 0, 0, false, "twice"},
	{"neither new nor old", journalHeader + "\nplan 0 odd 1 2 \"a.html\"\n", 0, 0, false, "neither new nor old"},
	{"bad inode", journalHeader + "\nplan 0 new x 2 \"a.html\"\n", 0, 0, false, "bad plan record"},
	{"after commit", committed("plan 0 old 1 2 \"a.html\"\n") + "tmp 5 \"b.html\"\n", 0, 0, false, "after the commit"},
	{"huge line", journalHeader + "\ntmp 0 \"" + strings.Repeat("a", maxJournalLine) + "\"\n", 0, 0, false, "longer than"},
}

func TestReadJournal(t *testing.T) {
	for _, tc := range journalTests {
		t.Run(tc.desc, func(t *testing.T) {
			j, err := readJournal(strings.NewReader(tc.text), "out/.robotsmith-journal")
			if tc.err != "" {
				var je *JournalError
				if !errors.As(err, &je) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want a *JournalError with %q", err, tc.err)
				}
				if len(err.Error()) > 300 {
					t.Errorf("got an error of %d bytes, want a short excerpt", len(err.Error()))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(j.tmps) != tc.tmps || len(j.plan) != tc.plan || j.committed != tc.committed {
				t.Errorf("got %d tmp, %d plan, committed %v; want %d, %d, %v", len(j.tmps), len(j.plan), j.committed, tc.tmps, tc.plan, tc.committed)
			}
		})
	}
}

// TestJournalNames: the records Tx writes read back with the same names, the
// odd ones included.
func TestJournalNames(t *testing.T) {
	names := []string{"a.html", "n\n q.html", "é/ü.html", "tab\there", `back\slash`, "x\x00y"}
	var b strings.Builder
	b.WriteString(journalHeader + "\n")
	for i, name := range names {
		b.Write(appendTmpRecord(nil, &entry{n: int32(i), name: name}))
	}
	for i, name := range names {
		b.Write(appendPlanRecord(nil, &entry{n: int32(i), name: name, new: i%2 == 0, temp: ident{ino: uint64(i), mtime: -5}}))
	}
	text := b.String()
	text += commitRecord(len(names), crc32.ChecksumIEEE([]byte(text)))
	j, err := readJournal(strings.NewReader(text), "j")
	if err != nil {
		t.Fatal(err)
	}
	if !j.committed || len(j.plan) != len(names) {
		t.Fatalf("got %+v", j)
	}
	for i, name := range names {
		if j.tmps[i].name != name || j.plan[i].name != name || j.plan[i].new != (i%2 == 0) || j.plan[i].temp.mtime != -5 {
			t.Errorf("record %d: got %+v / %+v, want %q", i, j.tmps[i], j.plan[i], name)
		}
	}
}

// FuzzJournal: any bytes read as a journal give a journal or a short
// *JournalError, and every name in a journal is a file inside the folder.
func FuzzJournal(f *testing.F) {
	for _, tc := range journalTests {
		if len(tc.text) < 1000 {
			f.Add([]byte(tc.text))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		j, err := readJournal(strings.NewReader(string(b)), "j")
		if err != nil {
			var je *JournalError
			if !errors.As(err, &je) {
				t.Fatalf("got %T %v, want a *JournalError", err, err)
			}
			if len(err.Error()) > 400 {
				t.Fatalf("an error of %d bytes", len(err.Error()))
			}
			return
		}
		for _, e := range append(j.tmps, j.plan...) {
			if !localName(e.name) {
				t.Fatalf("name %q is not local", e.name)
			}
		}
	})
}

func TestOwn(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{".robotsmith-journal", true},
		{".robotsmith-done", true},
		{".robotsmith-0.tmp", true},
		{".robotsmith-12345.tmp", true},
		{".robotsmith-7.old", true},
		// The site's own files, whatever they start with.
		{".robotsmith-page.html", false},
		{".robotsmith-.tmp", false},
		{".robotsmith-07.tmp", false},
		{".robotsmith-1.tmp.html", false},
		{".robotsmith-1a.tmp", false},
		{".robotsmith-journal.txt", false},
		{".robotsmith-", false},
		{"robotsmith-1.tmp", false},
		{"index.html", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Own(tc.name); got != tc.want {
				t.Errorf("Own(%q) = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
	// Every name a transaction makes is its own.
	e := &entry{n: 42, name: "a/b.html"}
	for _, name := range []string{e.tempBase(), e.oldBase(), journalName, doneName} {
		if !Own(name) {
			t.Errorf("Own(%q) = false for a name robotsmith makes", name)
		}
	}
}
