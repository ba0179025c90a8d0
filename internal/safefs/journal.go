package safefs

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
)

// The journal is a text file in the folder's root, one record a line:
//
//	robotsmith journal 1
//	tmp 0 "blog/index.html"                  before the temporary file 0 exists
//	tmp 1 "_headers"
//	plan 0 old 1835023 1767225600123456789 "blog/index.html"
//	plan 1 new 1835024 1767225600234567890 "_headers"
//	commit 2 9f3c2a41
//
// A tmp record is written before its temporary file is created, so a kill at
// any moment leaves no temporary file the journal does not name. The plan
// records, one per file (new: the file did not exist; then the inode and
// modification time of the temporary file, which the final file has once
// renamed), and the commit record (their count and the CRC-32 of every byte
// before it) are written together and synced before the first rename. A
// journal without a whole commit record is a build that renamed nothing.
//
// Names are slash paths relative to the root, quoted as Go strings, so a file
// name with a newline or a quote cannot break a line. Temporary file n of a
// name is ".robotsmith-<n>.tmp" in the name's folder, its original's second
// link ".robotsmith-<n>.old".

const (
	journalHeader = "robotsmith journal 1"
	// Prefix starts the name of every file robotsmith creates in the output:
	// temporary files, originals' second links, the journal.
	Prefix      = ".robotsmith-"
	journalName = Prefix + "journal"
	// doneName is the journal renamed once every file is in place: only the
	// originals' second links are left to remove.
	doneName = Prefix + "done"
	// maxJournalLine bounds one record: a quoted path of PATH_MAX bytes, each
	// byte escaped, and the numbers.
	maxJournalLine = 4*4096 + 128
)

// ident tells one file from another (see identOf).
type ident struct {
	ino   uint64
	mtime int64
}

// fingerprintSeed is the process's: fingerprints are compared within a run, never kept.
var fingerprintSeed = maphash.MakeSeed()

// fingerprint is a hash of the file's identity and size: a file replaced or rewritten since
// (another inode, another time, or another size, which a rewrite in the clock tick of the read
// keeps the time of) has another one, but for one chance in 2^64.
func fingerprint(fi fs.FileInfo) uint64 {
	return maphash.Comparable(fingerprintSeed, struct {
		id   ident
		size int64
	}{identOf(fi), fi.Size()})
}

// entry is one file of a transaction. A build keeps one per file it writes until it commits, so
// it is kept small: 48 bytes, stored by value (see entries), the name being the caller's string,
// never copied.
type entry struct {
	name string // slash path relative to the root
	temp ident  // the temporary file, once closed
	// orig is the original as read (in memory only), a fingerprint of its identity and size
	// (fingerprint): the commit only asks whether the file there is still that one, and 8 bytes
	// answer that where the three numbers took 24, a third of the entry.
	orig   uint64
	n      int32 // the number of its temporary file: the order of Create
	new    bool  // no file had the name when it was read
	closed bool  // closed without error
	keep   bool  // after the commit point: its second link is left to the next run (in memory only)
}

func (e *entry) tempBase() string { return ownName(".", e.n, ".tmp") }
func (e *entry) oldBase() string  { return ownName(".", e.n, ".old") }
func (e *entry) tempName() string { return ownName(folder(e.name), e.n, ".tmp") }
func (e *entry) oldName() string  { return ownName(folder(e.name), e.n, ".old") }

// ownName is the name of file n of robotsmith's own in the folder dir ("." the root), with the
// suffix ".tmp" or ".old", built in one allocation (Create makes one per file).
func ownName(dir string, n int32, suffix string) string {
	var b strings.Builder
	b.Grow(len(dir) + 1 + len(Prefix) + 10 + len(suffix))
	if dir != "." {
		b.WriteString(dir)
		b.WriteByte('/')
	}
	b.WriteString(Prefix)
	var num [10]byte
	b.Write(strconv.AppendInt(num[:0], int64(n), 10))
	b.WriteString(suffix)
	return b.String()
}

// ownNumber is the number n of a base name ".robotsmith-<n>.tmp" or ".robotsmith-<n>.old"; ok
// false for any other name, and for a number too large for a transaction.
func ownNumber(base string) (n int32, ok bool) {
	if !Own(base) {
		return 0, false
	}
	// Own's other names, "journal" and "done", are no number once cut.
	digits := strings.TrimPrefix(base, Prefix)
	v, err := strconv.ParseInt(digits[:len(digits)-len(".tmp")], 10, 32)
	return int32(v), err == nil
}

// folder is path.Dir of a clean slash name, without path.Clean's work: "." for a name in the
// root.
func folder(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return "."
}

// appendTmpRecord appends e's tmp record to b. Records are built into a buffer the transaction
// reuses, so that writing one allocates nothing.
func appendTmpRecord(b []byte, e *entry) []byte {
	b = append(b, "tmp "...)
	b = strconv.AppendInt(b, int64(e.n), 10)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, e.name)
	return append(b, '\n')
}

// appendPlanRecord appends e's plan record to b.
func appendPlanRecord(b []byte, e *entry) []byte {
	b = append(b, "plan "...)
	b = strconv.AppendInt(b, int64(e.n), 10)
	if e.new {
		b = append(b, " new "...)
	} else {
		b = append(b, " old "...)
	}
	b = strconv.AppendUint(b, e.temp.ino, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, e.temp.mtime, 10)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, e.name)
	return append(b, '\n')
}

func commitRecord(n int, sum uint32) string { return fmt.Sprintf("commit %d %08x\n", n, sum) }

// journal is a journal as read back.
type journal struct {
	tmps      []entry // from tmp records: n and name
	plan      []entry // from plan records, valid only when committed
	committed bool
}

// JournalError is a journal robotsmith cannot read: it does nothing to the
// folder rather than guess.
type JournalError struct {
	File string
	Line int
	Msg  string
}

func (e *JournalError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.msg())
}

// msg is the message without the place.
func (e *JournalError) msg() string {
	return e.Msg + " (an interrupted robotsmith build's journal; move it away to go on)"
}

// Problem is the error as a problem.Problem of code problem.JournalUnreadable; its Error() is
// Error() where the error names a line.
func (e *JournalError) Problem() problem.Problem {
	return *problem.New(problem.JournalUnreadable, problem.Position{File: e.File, Line: e.Line}, e.msg())
}

// readJournal parses a journal. A last line without its line break (a write
// cut short) is ignored; so are plan records without a valid commit record.
func readJournal(r io.Reader, file string) (*journal, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	j := &journal{}
	crc := crc32.NewIEEE()
	bad := func(n int, format string, args ...any) error {
		return &JournalError{File: file, Line: n, Msg: fmt.Sprintf(format, args...)}
	}
	seen := map[int32]bool{}
	for n := 1; ; n++ {
		line, err := readLine(br)
		if errors.Is(err, io.EOF) {
			if n == 1 && !strings.HasPrefix(journalHeader, line) {
				return nil, bad(1, "not a robotsmith journal (it starts %s)", excerpt(line))
			}
			// The tail (if any) was cut short. A journal killed before its header was whole
			// records nothing: every record is written after the header, and every temporary
			// file after its record.
			return j, nil
		}
		if err != nil {
			return nil, bad(n, "%v", err)
		}
		if j.committed {
			return nil, bad(n, "a record after the commit record")
		}
		text := strings.TrimSuffix(line, "\n")
		if n == 1 {
			if text != journalHeader {
				return nil, bad(1, "not a robotsmith journal (it starts %s)", excerpt(text))
			}
			crc.Write([]byte(line))
			continue
		}
		kind, rest, _ := strings.Cut(text, " ")
		switch kind {
		case "tmp":
			f := strings.SplitN(rest, " ", 2)
			e, err := recordEntry(f, 2)
			if err != nil {
				return nil, bad(n, "bad tmp record: %v", err)
			}
			if seen[e.n] {
				return nil, bad(n, "temporary file %d twice", e.n)
			}
			seen[e.n] = true
			j.tmps = append(j.tmps, e)
		case "plan":
			f := strings.SplitN(rest, " ", 5)
			e, err := recordEntry(f, 5)
			if err == nil && f[1] != "new" && f[1] != "old" {
				err = fmt.Errorf("%s is neither new nor old", excerpt(f[1]))
			}
			if err == nil {
				e.new = f[1] == "new"
				e.temp.ino, err = strconv.ParseUint(f[2], 10, 64)
			}
			if err == nil {
				e.temp.mtime, err = strconv.ParseInt(f[3], 10, 64)
			}
			if err != nil {
				return nil, bad(n, "bad plan record: %v", err)
			}
			j.plan = append(j.plan, e)
		case "commit":
			var count int
			var sum uint32
			if _, err := fmt.Sscanf(rest, "%d %x", &count, &sum); err != nil {
				return nil, bad(n, "bad commit record %s", excerpt(text))
			}
			if count != len(j.plan) || sum != crc.Sum32() {
				return nil, bad(n, "the commit record does not match the plan (%d records, checksum %08x; it says %d, %08x)", len(j.plan), crc.Sum32(), count, sum)
			}
			j.committed = true
		default:
			return nil, bad(n, "unknown record %s", excerpt(text))
		}
		crc.Write([]byte(line))
	}
}

// readLine reads one whole line, at most maxJournalLine bytes; a line cut
// short by the end of the file is io.EOF.
func readLine(br *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		chunk, err := br.ReadSlice('\n')
		b.Write(chunk)
		if b.Len() > maxJournalLine {
			return "", fmt.Errorf("a line longer than %d bytes", maxJournalLine)
		}
		switch {
		case err == nil:
			return b.String(), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return b.String(), io.EOF // the tail, cut short
		default:
			return "", err
		}
	}
}

// recordEntry reads a record's fields: the number first, the quoted name
// last, want fields in all.
func recordEntry(f []string, want int) (entry, error) {
	if len(f) != want {
		return entry{}, errors.New("too few fields")
	}
	n, err := strconv.ParseInt(f[0], 10, 32)
	if err != nil || n < 0 {
		return entry{}, fmt.Errorf("bad number %s", excerpt(f[0]))
	}
	name, err := strconv.Unquote(f[want-1])
	if err != nil {
		return entry{}, fmt.Errorf("bad name %s", excerpt(f[want-1]))
	}
	if !localName(name) {
		return entry{}, fmt.Errorf("%s is not a file inside the folder", excerpt(name))
	}
	return entry{n: int32(n), name: name}, nil
}

// localName reports whether name is a clean slash path of a file inside the
// folder and not one of robotsmith's own names.
func localName(name string) bool {
	return name != "" && name != "." && path.Clean(name) == name && filepath.IsLocal(filepath.FromSlash(name)) &&
		!Own(path.Base(name))
}

// Own reports whether the base name name is one that robotsmith makes in the
// folder: ".robotsmith-journal", ".robotsmith-done", and ".robotsmith-<n>.tmp"
// and ".robotsmith-<n>.old" (n a number in decimal, without leading zeros).
// These names are robotsmith's, whoever wrote the file: a walk of the output
// leaves them out, and a build removes any that no journal named (see
// Tx.RemoveLeftover). Any other name, ".robotsmith-page.html" too, is the
// site's.
func Own(name string) bool {
	rest, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return false
	}
	if rest == "journal" || rest == "done" {
		return true
	}
	n, ok := strings.CutSuffix(rest, ".tmp")
	if !ok {
		n, ok = strings.CutSuffix(rest, ".old")
	}
	if !ok || n == "" || len(n) > 1 && n[0] == '0' {
		return false
	}
	for _, c := range []byte(n) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// excerpt quotes at most 32 bytes of s.
func excerpt(s string) string {
	// Quoted in ASCII so that a damaged journal cannot put control bytes on
	// the terminal; cut at 32 bytes so that one message stays a line.
	const max = 32
	if len(s) <= max {
		return strconv.QuoteToASCII(s)
	}
	return strconv.QuoteToASCII(s[:max]) + "..."
}
