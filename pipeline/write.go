package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/robotsmith/robotsmith/watch"
)

// pending is one file written to a temporary name beside its final name, waiting for the moment
// every file of the run is ready. The write phase works on a list of these alone: it never works
// out a file's name from its temporary name.
type pending struct {
	temp  string      // the temporary file
	final string      // the file it replaces
	mode  fs.FileMode // the mode both have
	stamp watch.Stamp // in watch mode, what it holds (job.own's stamp); zero otherwise
}

// write is how the step and the site steps write a file: to a temporary file beside it
// (writeTemp), and in watch mode with the stamp of its content, which watch.Own is given once the
// file is in place, so that the watcher does not take robotsmith's own write for an edit.
func (j *job) write(name string, data []byte, mode fs.FileMode) (*pending, error) {
	p, err := writeTemp(name, data, mode)
	if p != nil && j.own != nil {
		p.stamp = j.own.Stamp(data)
	}
	return p, err
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

// commit puts every pending file in place, on as many goroutines as the step ran on: a rename is a
// system call, and a site has one for every page. After a failed rename the others are still
// tried, and the temporary files left are removed.
func commit(ps []pending, workers int) error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	workers = max(1, min(workers, len(ps)))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ps); i += workers {
				if err := os.Rename(ps[i].temp, ps[i].final); err != nil {
					os.Remove(ps[i].temp)
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// discard removes every pending file: nothing is put in place.
func discard(ps []pending) {
	for _, p := range ps {
		os.Remove(p.temp)
	}
}
