package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Recovery is what Begin or Recover did about an interrupted transaction.
type Recovery struct {
	// Undone counts files put back as they were before the interrupted build.
	Undone int
	// Removed counts temporary files and originals' second links removed.
	Removed int
	// Finished: the interrupted build had put every file in place; only its
	// cleanup was left, and it is done.
	Finished bool
}

// Any reports whether there was anything to recover.
func (r Recovery) Any() bool { return r.Undone > 0 || r.Removed > 0 || r.Finished }

func (r Recovery) String() string {
	switch {
	case r.Finished:
		return fmt.Sprintf("finished an interrupted build's cleanup (%d leftover files removed)", r.Removed)
	case r.Any():
		return fmt.Sprintf("undid an interrupted build: %d files put back, %d temporary files removed", r.Undone, r.Removed)
	}
	return "nothing to recover"
}

// recoverIn finishes (a done marker) or undoes (a journal) what a killed run
// left; lock is the folder's descriptor, for syncing it.
func recoverIn(root *os.Root, lock *os.File, dir string) (Recovery, error) {
	var rec Recovery
	if j, err := openJournal(root, doneName, dir); err != nil {
		return rec, err
	} else if j != nil {
		if !j.committed {
			return rec, &JournalError{File: filepath.Join(dir, doneName), Msg: "a done marker without a commit record"}
		}
		for _, e := range j.plan {
			for _, name := range []string{e.oldName(), e.tempName()} {
				if ok, err := removed(root, name); err != nil {
					return rec, err
				} else if ok {
					rec.Removed++
				}
			}
		}
		if err := root.Remove(doneName); err != nil {
			return rec, err
		}
		rec.Finished = true
	}
	j, err := openJournal(root, journalName, dir)
	if err != nil || j == nil {
		return rec, err
	}
	if j.committed {
		for i := len(j.plan) - 1; i >= 0; i-- {
			r, err := undoEntry(root, &j.plan[i])
			if err != nil {
				return rec, err
			}
			rec.Undone += r.Undone
			rec.Removed += r.Removed
		}
	} else {
		for _, e := range j.tmps {
			if ok, err := removed(root, e.tempName()); err != nil {
				return rec, err
			} else if ok {
				rec.Removed++
			}
		}
	}
	// The folder's new state is durable before the journal that describes how
	// to reach it from the old one goes.
	if err := syncDir(lock); err != nil {
		return rec, err
	}
	return rec, root.Remove(journalName)
}

// openJournal reads the journal or done marker name; nil when there is none.
func openJournal(root *os.Root, name, dir string) (*journal, error) {
	f, _, err := OpenIn(root, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readJournal(f, filepath.Join(dir, name))
}

// undoEntry puts back one file of a transaction from whatever state a run
// left it in, and removes its temporary file and its original's second link:
//
//   - a replacement whose second link exists: when the name holds the file
//     robotsmith wrote (same inode and time as the temporary file), the
//     original is renamed back over it; otherwise the name holds the original
//     itself or another process's file since, and the second link goes;
//   - a new file: removed when the name holds the file robotsmith wrote.
//
// Never does it change a file that another process wrote since.
func undoEntry(root *os.Root, e *entry) (Recovery, error) {
	var rec Recovery
	fi, err := root.Lstat(e.name)
	ours := err == nil && fi.Mode().IsRegular() && identOf(fi) == e.temp
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rec, err
	}
	if e.new {
		if ours {
			if err := root.Remove(e.name); err != nil {
				return rec, err
			}
			rec.Undone++
		}
	} else if _, err := root.Lstat(e.oldName()); err == nil {
		if ours {
			if err := root.Rename(e.oldName(), e.name); err != nil {
				return rec, err
			}
			rec.Undone++
		} else if err := root.Remove(e.oldName()); err != nil {
			return rec, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return rec, err
	}
	ok, err := removed(root, e.tempName())
	if ok {
		rec.Removed++
	}
	return rec, err
}

// removed removes name and reports whether it was there. A name that is not there is no error,
// also where the system refuses the removal before it looks for the name: a read-only file system
// says EROFS even for a name it does not hold, and the undo of a build that could make no
// temporary file in a read-only folder then failed, keeping the journal, with nothing to undo.
func removed(root *os.Root, name string) (bool, error) {
	err := root.Remove(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if _, lerr := root.Lstat(name); errors.Is(lerr, fs.ErrNotExist) {
			err = lerr
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
