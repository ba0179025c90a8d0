package safefs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/robotsmith/robotsmith/problem"
)

// ErrDone: Create, Commit or Abort after the transaction ended.
var ErrDone = errors.New("safefs: the transaction has ended")

// Tx replaces many files of one folder as one change. Create and File.Write
// may be called from many goroutines; Commit and Abort once, after every File
// is closed.
type Tx struct {
	// Recovered is what Begin found of an interrupted transaction and undid
	// or finished.
	Recovered Recovery
	// Warnings are problems after the commit point that did not stop it: a
	// leftover that the next run removes (problem.LeftoverFiles).
	Warnings []problem.Problem

	dir  string
	root *os.Root
	lock *os.File // the folder, locked
	// beneath is the folder, which a temporary file is created beneath in one system call
	// (createBeneath) where the system can; nil where it cannot, and os.Root does it.
	beneath *os.File

	mu      sync.Mutex
	journal *os.File // nil until the first Create
	sum     hash.Hash32
	record  []byte // the journal record being written, reused
	entries entries
	open    int // Files not closed yet
	ended   bool

	// hook, when set, is called before each step of Commit (tests: "plan",
	// "link", "rename", "done", "cleanup" with the file's index), and an error
	// it returns fails the step as the file system's own error would.
	hook func(step string, i int) error
}

// Begin starts a transaction on the folder dir. It locks the folder against
// other robotsmith runs (waiting while one holds it, until ctx ends) and
// first finishes or undoes any transaction a killed run left there (see
// Recover); Tx.Recovered says what it did.
func Begin(ctx context.Context, dir string) (*Tx, error) {
	lock, err := lockDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		lock.Close()
		return nil, err
	}
	tx := &Tx{dir: dir, root: root, lock: lock}
	if beneathSupported() {
		tx.beneath, _ = root.Open(".")
	}
	if tx.Recovered, err = recoverIn(root, lock, dir); err != nil {
		tx.release()
		return nil, err
	}
	return tx, nil
}

// Recover finishes or undoes the transaction that a killed run left in dir, if
// any, under the folder's lock, and removes every temporary file it made.
// Every command runs it before it reads the folder.
func Recover(ctx context.Context, dir string) (Recovery, error) {
	lock, err := lockDir(ctx, dir)
	if err != nil {
		return Recovery{}, err
	}
	defer lock.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return Recovery{}, err
	}
	defer root.Close()
	return recoverIn(root, lock, dir)
}

// File is the new content of one file, written to a temporary file beside it.
type File struct {
	tx   *Tx
	e    *entry // in tx.entries, until Commit sorts them
	name string
	f    *os.File
	orig fs.FileInfo
}

// Create starts the new content of name (a slash path relative to the
// folder). orig is the file as robotsmith read it (the opened file's Stat):
// the new file gets its mode, setuid, setgid and sticky bits included, and
// its owner and group where the process may set them, and Commit fails with
// ErrChanged if another process replaced, rewrote or deleted it meanwhile.
// orig nil makes a new file, which must still not exist at Commit.
//
// A name created twice in one transaction fails Commit, which then undoes the
// build (Create cannot refuse it without a set of every name, which would
// cost about as much memory again as the rest of the transaction).
func (tx *Tx) Create(name string, orig fs.FileInfo) (*File, error) {
	name = filepath.ToSlash(name) // on Unix, name itself: the caller's string is kept, never copied
	if !localName(name) {
		return nil, fmt.Errorf("safefs: %q is not a file name inside the folder", name)
	}
	tx.mu.Lock()
	if tx.ended {
		tx.mu.Unlock()
		return nil, ErrDone
	}
	if tx.entries.n == math.MaxInt32 {
		tx.mu.Unlock()
		return nil, fmt.Errorf("safefs: more than %d files in one transaction", math.MaxInt32)
	}
	ne := entry{n: int32(tx.entries.n), name: name, new: orig == nil}
	if orig != nil {
		ne.orig = fingerprint(orig)
	}
	tx.record = appendTmpRecord(tx.record[:0], &ne)
	if err := tx.writeRecord(tx.record); err != nil {
		tx.mu.Unlock()
		return nil, err
	}
	e := tx.entries.add(ne)
	tx.open++
	tx.mu.Unlock()

	// A replacement starts with the original's permissions, less the umask: Close gives it the
	// rest of the original's mode (and owner), with no chmod when the umask took nothing. A new
	// file is as any new file: the umask decides.
	perm := fs.FileMode(0o666)
	if orig != nil {
		perm = orig.Mode().Perm()
	}
	temp := ne.tempName()
	// os.Root opens and closes every folder on the way to the name (a page three folders deep:
	// four opens and three closes; a seventh of the samples of a 100,000-page build's profile
	// while it writes pages); one openat2 beneath the folder does it in one, and whatever that
	// cannot do, os.Root does.
	var (
		f   *os.File
		ok  bool
		err error
	)
	if tx.beneath != nil {
		f, ok = createBeneath(tx.beneath, tx.dir, temp, perm)
	}
	if !ok {
		f, err = tx.root.OpenFile(temp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	}
	if errors.Is(err, fs.ErrExist) {
		// A file under our temporary name that no journal knew of (an older
		// robotsmith's, or a copy of the output): ours to replace.
		if tx.root.Remove(temp) == nil {
			f, err = tx.root.OpenFile(temp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
		}
	}
	if err != nil {
		tx.closed(e, ident{}, false)
		return nil, err
	}
	return &File{tx: tx, e: e, name: name, f: f, orig: orig}, nil
}

// WriteFile is Create, Write and Close.
func (tx *Tx) WriteFile(name string, orig fs.FileInfo, data []byte) error {
	f, err := tx.Create(name, orig)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeRecord appends a record to the journal, creating it first; tx.mu is
// held.
func (tx *Tx) writeRecord(line []byte) error {
	if tx.journal == nil {
		f, err := tx.root.OpenFile(journalName, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		tx.journal, tx.sum = f, crc32.NewIEEE()
		if err := tx.write([]byte(journalHeader + "\n")); err != nil {
			return err
		}
	}
	return tx.write(line)
}

func (tx *Tx) write(b []byte) error {
	tx.sum.Write(b)
	_, err := tx.journal.Write(b)
	return err
}

// closed records that e's File is closed, with the temporary file's identity
// when ok.
func (tx *Tx) closed(e *entry, temp ident, ok bool) {
	tx.mu.Lock()
	e.temp, e.closed = temp, ok
	tx.open--
	tx.mu.Unlock()
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Name is the file's name, as given to Create.
func (f *File) Name() string { return f.name }

// Close finishes the temporary file: the original's owner, group and mode for
// a replacement; a sync for a new file (see the package doc). A File that is
// not closed without error fails Commit.
func (f *File) Close() error {
	// One Stat serves the owner and mode checks and the temporary file's identity (its inode and
	// modification time, which neither chown nor chmod changes).
	fi, err := f.f.Stat()
	if err == nil {
		if f.orig != nil {
			err = keepMode(f.f, fi, f.orig)
		} else {
			err = f.f.Sync()
		}
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	var temp ident
	if err == nil {
		temp = identOf(fi)
	}
	f.tx.closed(f.e, temp, err == nil)
	return err
}

// keepMode gives f, whose Stat is fi, the owner, group and mode of orig: the permission, setuid,
// setgid and sticky bits, set after chown (which clears setuid and setgid), and not set at all when
// f has them already.
func keepMode(f *os.File, fi, orig fs.FileInfo) error {
	chowned, err := keepOwner(f, fi, orig)
	if err != nil {
		return err
	}
	const bits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky
	if want := orig.Mode() & bits; chowned || fi.Mode()&bits != want {
		return f.Chmod(want)
	}
	return nil
}

// RemoveLeftover removes name (a slash path relative to the folder), a file
// under one of robotsmith's own names (Own) that Begin's recovery did not
// remove because no journal named it: a temporary file whose tmp record a
// power loss took (see the package doc), or a copy of an output that held
// one. The walk of a build's output calls it for each such name it meets,
// before the build writes anything; a name that is not robotsmith's, or that
// this transaction has made, is refused.
func (tx *Tx) RemoveLeftover(name string) error {
	name = filepath.ToSlash(name)
	base := path.Base(name)
	if !Own(base) || !localName(path.Dir(name)) && path.Dir(name) != "." {
		return fmt.Errorf("safefs: %q is not one of robotsmith's own files", name)
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.ended {
		return ErrDone
	}
	if path.Dir(name) == "." && (base == journalName || base == doneName) {
		return fmt.Errorf("safefs: %s is this build's journal", name)
	}
	// Until Commit sorts them, entry n is the one whose files are numbered n.
	if n, ok := ownNumber(base); ok && int(n) < tx.entries.n && folder(tx.entries.at(int(n)).name) == path.Dir(name) {
		return fmt.Errorf("safefs: %s is this build's own temporary file", name)
	}
	return removeIfThere(tx.root, name)
}

// Len is the number of files created so far; 0 once committed (a committed transaction keeps
// nothing of its files).
func (tx *Tx) Len() int {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	return tx.entries.n
}

// Commit puts every created file in place, or none. A failure (a file another
// process changed meanwhile, a folder deleted, a full disk) or ctx ending
// (SIGINT, SIGTERM) undoes the files already replaced and returns the cause;
// every temporary file is gone either way, and the folder is unlocked.
func (tx *Tx) Commit(ctx context.Context) error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.ended {
		return ErrDone
	}
	tx.ended = true
	defer tx.release()
	if tx.entries.n == 0 {
		return nil
	}
	for i := range tx.entries.n {
		if e := tx.entries.at(i); !e.closed || tx.open > 0 {
			return tx.undo(fmt.Errorf("safefs: %s was not written whole", e.name))
		}
	}
	if err := ctx.Err(); err != nil {
		return tx.undo(err)
	}
	// In folder order, so that each folder is opened once (see folders), and
	// so that a name created twice is found: the same name twice is two
	// neighbours.
	sort.Sort(&tx.entries)
	for i := 1; i < tx.entries.n; i++ {
		if name := tx.entries.at(i).name; name == tx.entries.at(i-1).name {
			return tx.undo(fmt.Errorf("safefs: %s created twice", name))
		}
	}
	if err := tx.writePlan(); err != nil {
		return tx.undo(err)
	}
	if err := tx.applyAll(ctx); err != nil {
		return tx.undo(err)
	}
	// The commit point: the journal becomes the done marker, by a rename, which
	// the file system orders after the renames above. Past it, ctx ending
	// changes nothing: the build is done.
	if err := ctx.Err(); err != nil {
		return tx.undo(err)
	}
	if err := tx.step("done", 0); err != nil {
		return tx.undo(err)
	}
	if err := tx.journal.Close(); err != nil {
		return tx.undo(err)
	}
	tx.journal = nil
	if err := tx.root.Rename(journalName, doneName); err != nil {
		return tx.undo(err)
	}
	tx.removeOriginals()
	if err := tx.root.Remove(doneName); err != nil {
		tx.Warnings = append(tx.Warnings, leftover(err))
	}
	// Nothing is left to do with the entries, and the run that made the transaction goes on (its
	// report, watch mode's next batch) without them: a build's are most of what it keeps.
	tx.entries = entries{}
	return nil
}

// applyAll puts every entry in place (apply), on one goroutine a CPU, each taking a run of one
// folder's files, so that it opens the folder once for the run: one goroutine spent 4 s of a
// 100,000-page build's commit on the link, lstat and rename of each file, busy on one core. Their
// order does not matter: each file is put in place on its own, the undo looks at what each file's
// names hold, and the commit point's rename comes after every one has returned. With a test's hook
// set, the files go one at a time, in order, on the calling goroutine, as the hook's steps are
// numbered (and as a kill it simulates would land).
func (tx *Tx) applyAll(ctx context.Context) error {
	var (
		failed atomic.Bool
		mu     sync.Mutex
		first  error
	)
	do := func(dirs *folders, from, to int) {
		for i := from; i < to && !failed.Load(); i++ {
			e := tx.entries.at(i)
			err := ctx.Err()
			if err == nil {
				var d *os.Root
				if d, err = dirs.in(path.Dir(e.name)); err == nil {
					err = tx.apply(d, i, e)
				}
			}
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				failed.Store(true)
			}
		}
	}
	if tx.hook != nil {
		dirs := folders{root: tx.root}
		defer dirs.close()
		do(&dirs, 0, tx.entries.n)
		return first
	}
	tx.inFolderRuns(runtime.GOMAXPROCS(0), func(int) bool { return !failed.Load() }, do)
	return first
}

// removeOriginals removes the originals' second links, past the commit
// point. Removing a file's last link frees its blocks, which waits on the disk
// (ext4 mounted with discard, a virtual disk: about a millisecond a file on
// this project's machine), so one removal at a time took most of a commit's
// time; several in flight overlap those waits. Past the commit point their
// order does not matter. The entries are in folder order: each worker takes a
// run of one folder's files, so that it opens the folder once for the run.
func (tx *Tx) removeOriginals() {
	var mu sync.Mutex // Warnings
	warn := func(err error) {
		mu.Lock()
		tx.Warnings = append(tx.Warnings, leftover(err))
		mu.Unlock()
	}
	// The hook runs before each file is handed out, one file at a time in
	// order, as a kill would land: what was handed out before it may be
	// removed, nothing after.
	before := func(i int) bool {
		if e := tx.entries.at(i); !e.new {
			if err := tx.step("cleanup", i); err != nil {
				warn(err)
				e.keep = true // the next run's recovery removes it
			}
		}
		return true
	}
	tx.inFolderRuns(8, before, func(dirs *folders, from, to int) {
		for i := from; i < to; i++ {
			e := tx.entries.at(i) // e.keep written before its run was handed out
			if e.new || e.keep {
				continue
			}
			d, err := dirs.in(path.Dir(e.name))
			if err == nil {
				err = removeIfThere(d, e.oldBase())
			}
			if err != nil {
				warn(err)
			}
		}
	})
}

// inFolderRuns hands the entries, in their (folder) order, to workers goroutines in runs of at
// most 64 files of one folder; each worker calls do with its own folders, so that it opens a
// folder once for a run. before(i) is called on this goroutine for each entry before its run is
// handed out; when it returns false, nothing more is. It returns when every run handed out is
// done, also when this goroutine ends in before (a test's hook that simulates a kill there): what
// was handed out is finished, nothing after.
func (tx *Tx) inFolderRuns(workers int, before func(i int) bool, do func(dirs *folders, from, to int)) {
	const run = 64
	type span struct{ from, to int }
	todo := make(chan span)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dirs := folders{root: tx.root}
			defer dirs.close()
			for sp := range todo {
				do(&dirs, sp.from, sp.to)
			}
		}()
	}
	defer func() {
		close(todo)
		wg.Wait()
	}()
	from := 0
	for i := range tx.entries.n {
		if !before(i) {
			return
		}
		if i+1 == tx.entries.n || i+1-from == run || folder(tx.entries.at(i+1).name) != folder(tx.entries.at(i).name) {
			todo <- span{from, i + 1}
			from = i + 1
		}
	}
}

// writePlan writes the plan and commit records and makes the journal durable
// (its data, then its name in the folder) before the first rename.
func (tx *Tx) writePlan() error {
	w := bufio.NewWriterSize(tx.journal, 64<<10)
	for i := range tx.entries.n {
		tx.record = appendPlanRecord(tx.record[:0], tx.entries.at(i))
		tx.sum.Write(tx.record)
		w.Write(tx.record)
	}
	w.WriteString(commitRecord(tx.entries.n, tx.sum.Sum32()))
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tx.journal.Sync(); err != nil {
		return err
	}
	if err := syncDir(tx.lock); err != nil {
		return err
	}
	return tx.step("plan", 0)
}

// apply puts entry i in place; d is its folder. A replacement keeps the
// original under a second name until the commit ends, so that it can be put
// back: link, then rename over, so the name always holds a whole file. A new
// file is linked to its name, which fails if another process created the
// name meanwhile.
func (tx *Tx) apply(d *os.Root, i int, e *entry) error {
	base := path.Base(e.name)
	if e.new {
		if err := tx.step("link", i); err != nil {
			return err
		}
		if err := d.Link(e.tempBase(), base); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return &fs.PathError{Op: "create", Path: e.name, Err: ErrChanged}
			}
			return err
		}
		if err := tx.step("rename", i); err != nil {
			return err
		}
		return d.Remove(e.tempBase())
	}
	if err := tx.step("link", i); err != nil {
		return err
	}
	if err := d.Link(base, e.oldBase()); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &fs.PathError{Op: "replace", Path: e.name, Err: ErrChanged}
		}
		return err
	}
	fi, err := d.Lstat(e.oldBase())
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fingerprint(fi) != e.orig {
		return &fs.PathError{Op: "replace", Path: e.name, Err: ErrChanged}
	}
	if err := tx.step("rename", i); err != nil {
		return err
	}
	if err := d.Rename(e.tempBase(), base); err != nil {
		return err
	}
	// Checked again once the name holds the new file: a writer that opened the original between
	// the check above and the rename (a generator rewriting the page in place, O_TRUNC) wrote into
	// what is now only its second link, which the commit would remove, and its change would be
	// lost without a trace. Its open changed the original's time, so it is ErrChanged, and the
	// undo puts its file back. (Any later open reaches the new file.)
	if fi, err = d.Lstat(e.oldBase()); err != nil {
		return err
	}
	if fingerprint(fi) != e.orig {
		return &fs.PathError{Op: "replace", Path: e.name, Err: ErrChanged}
	}
	return nil
}

// folders opens each folder once for a run of operations on its files, so
// that each operation names a single path element: os.Root resolves every
// element of a longer name with an open and a close of its own, which for
// files three folders deep is most of a commit's system calls. It keeps the
// folders on the way to the last one open too: the entries come in folder
// order, so the next folder is most often a sibling of the last, which one
// open from their parent reaches (at 100,000 pages, each in a folder of its
// own, that is one open and one close a folder instead of three and three).
type folders struct {
	root *os.Root
	// path is the open folders from the root down, each inside the one before.
	path []openFolder
}

type openFolder struct {
	name string // relative to the root
	root *os.Root
}

func (f *folders) in(dir string) (*os.Root, error) {
	if dir == "." {
		return f.root, nil
	}
	// The deepest open folder that is dir or holds it.
	k := len(f.path)
	for ; k > 0; k-- {
		n := f.path[k-1].name
		if n == dir || len(dir) > len(n) && dir[len(n)] == '/' && dir[:len(n)] == n {
			break
		}
	}
	f.closeFrom(k)
	parent, at := f.root, 0
	if k > 0 {
		parent, at = f.path[k-1].root, len(f.path[k-1].name)+1
	}
	for at < len(dir) {
		end := strings.IndexByte(dir[at:], '/')
		if end < 0 {
			end = len(dir)
		} else {
			end += at
		}
		r, err := parent.OpenRoot(dir[at:end])
		if err != nil {
			// Opened from the root in one call, as before, whose answer stands (a folder
			// reached through a link that stays inside the root but not inside its parent).
			f.closeFrom(0)
			if r, err = f.root.OpenRoot(dir); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					err = &fs.PathError{Op: "replace", Path: dir, Err: ErrChanged}
				}
				return nil, err
			}
			f.path = append(f.path, openFolder{dir, r})
			return r, nil
		}
		f.path = append(f.path, openFolder{dir[:end], r})
		parent, at = r, end+1
	}
	return parent, nil
}

// closeFrom closes the open folders from the k-th down.
func (f *folders) closeFrom(k int) {
	for _, o := range f.path[k:] {
		o.root.Close()
	}
	clear(f.path[k:])
	f.path = f.path[:k]
}

func (f *folders) close() { f.closeFrom(0) }

func (tx *Tx) step(name string, i int) error {
	if tx.hook == nil {
		return nil
	}
	return tx.hook(name, i)
}

// undo puts back every file already replaced, removes every temporary file
// and the journal, and returns cause (joined with anything that failed, in
// which case the journal stays for the next run to finish the undo).
func (tx *Tx) undo(cause error) error {
	if tx.journal != nil {
		tx.journal.Close()
		tx.journal = nil
	}
	var errs []error
	for i := tx.entries.n - 1; i >= 0; i-- {
		if _, err := undoEntry(tx.root, tx.entries.at(i)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		if err := removeIfThere(tx.root, journalName); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		failed := problem.Newf(problem.UndoFailed, problem.Position{}, "safefs: undoing the build in %s failed; the next robotsmith run finishes it", tx.dir)
		return errors.Join(append([]error{cause, failed}, errs...)...)
	}
	return cause
}

// Abort ends the transaction without changing any file: every temporary file
// and the journal are removed, and the folder is unlocked.
func (tx *Tx) Abort() error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.ended {
		return nil
	}
	tx.ended = true
	defer tx.release()
	if tx.entries.n == 0 && tx.journal == nil {
		return nil
	}
	if err := tx.undo(nil); err != nil {
		return err
	}
	return nil
}

func (tx *Tx) release() {
	if tx.journal != nil {
		tx.journal.Close()
		tx.journal = nil
	}
	tx.root.Close()
	if tx.beneath != nil {
		tx.beneath.Close()
	}
	tx.lock.Close() // closing the folder's descriptor drops its lock
}

// removeIfThere removes name; a name already gone is no error (removed).
func removeIfThere(root *os.Root, name string) error {
	_, err := removed(root, name)
	return err
}

// entries holds a transaction's entries by value, in chunks of chunkLen that
// never move once made: a File points to its entry while it is written, and
// growing copies nothing (a slice grown by append copies every entry at each
// doubling and holds both arrays meanwhile; a slice of pointers adds a
// pointer and a separate allocation per file). A build holds one entry per
// file it writes until it commits, so this is most of what a transaction
// keeps.
type entries struct {
	chunks []*[chunkLen]entry
	n      int
}

// chunkLen entries make a chunk of 48 KiB: what a transaction of one file
// costs, and at most what a big one leaves unused. Over 32 KiB, the runtime
// gives an object whole pages (8 KiB each) and no header; a chunk under that,
// with its 8-byte header, would take the next size class (measured when an
// entry was 64 bytes: 72 bytes a file for chunks of 16 KiB).
const chunkLen = 1024

// add appends e and returns where it is kept.
func (s *entries) add(e entry) *entry {
	if s.n%chunkLen == 0 {
		s.chunks = append(s.chunks, new([chunkLen]entry))
	}
	p := &s.chunks[s.n/chunkLen][s.n%chunkLen]
	*p = e
	s.n++
	return p
}

func (s *entries) at(i int) *entry { return &s.chunks[i/chunkLen][i%chunkLen] }

// Len, Less and Swap sort the entries in place in folder order, then by name
// (sort.Interface: the chunks are no slice for package slices to sort).
func (s *entries) Len() int { return s.n }

func (s *entries) Less(i, j int) bool {
	a, b := s.at(i).name, s.at(j).name
	if da, db := folder(a), folder(b); da != db {
		return da < db
	}
	return a < b
}

func (s *entries) Swap(i, j int) {
	a, b := s.at(i), s.at(j)
	*a, *b = *b, *a
}

// leftover is the warning for a file of the transaction that could not be removed after the commit
// point, which the next run removes.
func leftover(err error) problem.Problem {
	return *problem.Newf(problem.LeftoverFiles, problem.Position{}, "%v (the next run removes it)", err)
}
