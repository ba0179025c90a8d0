package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

// hasCode reports whether a problem of code is anywhere in err's tree.
func hasCode(err error, code problem.Code) bool {
	if err == nil {
		return false
	}
	if c, ok := err.(problem.Carrier); ok && c.Problem().Code == code {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return hasCode(u.Unwrap(), code)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if hasCode(e, code) {
				return true
			}
		}
	}
	return false
}

// TestErrorCodes checks that the errors safefs gives a user carry their codes, and that those
// that are one problem print as it.
func TestErrorCodes(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.xml")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc string
		err  func() error
		want problem.Code
	}{
		{"too large", func() error { _, err := ReadFile(big, 10); return err }, problem.FileTooLarge},
		{"a folder", func() error { _, err := ReadFile(dir, 10); return err }, problem.NotARegularFile},
		{"a journal", func() error {
			_, err := readJournal(strings.NewReader("hello\n"), "out/.robotsmith-journal")
			return err
		}, problem.JournalUnreadable},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			err := tc.err()
			if got := problem.CodeOf(err); got != tc.want {
				t.Errorf("got code %s, want %s (%v)", got, tc.want, err)
			}
			if c, ok := err.(problem.Carrier); ok {
				if p := c.Problem(); p.Error() != err.Error() {
					t.Errorf("its Problem prints %q, want %q", p.Error(), err.Error())
				}
			}
		})
	}
	for _, tc := range []struct {
		err  error
		want problem.Code
	}{{ErrChanged, problem.FileChanged}, {ErrOutside, problem.LinkOutside}, {ErrTooLarge, problem.FileTooLarge}} {
		if got := problem.CodeOf(tc.err); got != tc.want {
			t.Errorf("%v: code %s, want %s", tc.err, got, tc.want)
		}
		if !errors.Is(tc.err, tc.err) {
			t.Errorf("%v is not itself to errors.Is", tc.err)
		}
	}
}

// TestWarningCodes checks that what a commit leaves behind, a file the next run removes, is a
// warning of its code.
func TestWarningCodes(t *testing.T) {
	dir := tree(t, oldSite)
	tx := begin(t, dir)
	stage(t, tx, dir, changes)
	tx.hook = func(step string, i int) error {
		if step == "cleanup" {
			return errors.New("cannot remove it")
		}
		return nil
	}
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(tx.Warnings) == 0 {
		t.Fatal("no warning for a leftover")
	}
	for _, w := range tx.Warnings {
		if w.Code != problem.LeftoverFiles || w.Msg != "cannot remove it (the next run removes it)" {
			t.Errorf("warning %s %q, want %s %q", w.Code, w.Msg, problem.LeftoverFiles, "cannot remove it (the next run removes it)")
		}
	}
}
