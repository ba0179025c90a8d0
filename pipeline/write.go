package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// pending is one file written to a temporary name beside its final name, waiting for the moment
// every file of the run is ready. The write phase works on a list of these alone: it never works
// out a file's name from its temporary name.
type pending struct {
	temp  string      // the temporary file
	final string      // the file it replaces
	mode  fs.FileMode // the mode both have
}

// writeTemp writes data to a temporary file beside name, with mode, and returns it as pending.
func writeTemp(name string, data []byte, mode fs.FileMode) (*pending, error) {
	f, err := os.CreateTemp(filepath.Dir(name), tempPrefix+filepath.Base(name)+".*")
	if err != nil {
		return nil, err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	return &pending{temp: f.Name(), final: name, mode: mode}, nil
}

// commit puts every pending file in place. After a failed rename the others are still tried, and
// the temporary files left are removed.
func commit(ps []pending) error {
	var errs []error
	for _, p := range ps {
		if err := os.Rename(p.temp, p.final); err != nil {
			errs = append(errs, err)
			os.Remove(p.temp)
		}
	}
	return errors.Join(errs...)
}

// discard removes every pending file: nothing is put in place.
func discard(ps []pending) {
	for _, p := range ps {
		os.Remove(p.temp)
	}
}
