package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
)

// recordFlag is build's and check's --record FILE: the indexability record (package indexability).
func recordFlag(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.record, "record", "", "also write the site's indexability record, for robotsmith diff, to `FILE` (JSON Lines)")
}

// recordFile is the record being written to a temporary file beside FILE: put in place by commit
// when the run succeeds, so that a run that fails, or is stopped, leaves FILE as it was, and a
// reader never sees half a record.
type recordFile struct {
	name string
	tmp  *os.File
}

// createRecord starts writing the record FILE name.
func createRecord(name string) (*recordFile, error) {
	dir, base := filepath.Split(name)
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		return nil, &os.PathError{Op: "write record", Path: name, Err: errors.New("is a folder")}
	}
	tmp, err := os.CreateTemp(firstOf(dir, "."), "."+base+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &recordFile{name: name, tmp: tmp}, nil
}

// commit puts the record in place.
func (r *recordFile) commit() error {
	err := r.tmp.Chmod(0o644)
	if err == nil {
		err = r.tmp.Sync()
	}
	if cerr := r.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(r.tmp.Name(), r.name)
	}
	if err != nil {
		os.Remove(r.tmp.Name())
	}
	return err
}

// discard drops the record: FILE is left as it was.
func (r *recordFile) discard() {
	r.tmp.Close()
	os.Remove(r.tmp.Name())
}
