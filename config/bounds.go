package config

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/robotsmith/robotsmith/problem"
)

// Bounds on what a configuration may make robotsmith do (SPEC §10: no input
// may use memory or time out of proportion to its size). A real
// configuration is a few kilobytes, four levels deep.
const (
	// MaxSize is the largest configuration file read.
	MaxSize = 1 << 20
	// maxDepth is the deepest nesting of maps and lists (and TOML's dotted
	// keys and table headers) accepted.
	maxDepth = 32
	// maxErrors is how many problems one file reports before "and N more".
	maxErrors = 20
)

// ErrTooDeep, ErrAliases: the configuration nests deeper than robotsmith
// reads, or YAML aliases expand it to far more values than it writes.
// Each is of its code: problem.ConfigTooDeep, problem.ConfigAliases, problem.ConfigTooLarge.
var (
	ErrTooDeep  error = problem.Newf(problem.ConfigTooDeep, problem.Position{}, "nested more than %d levels deep", maxDepth)
	ErrAliases  error = problem.New(problem.ConfigAliases, problem.Position{}, "YAML aliases expand to many times the values the file writes out")
	errTooLarge error = problem.Newf(problem.ConfigTooLarge, problem.Position{}, "more than %d KiB; a configuration is a few", MaxSize>>10)
)

// aliasBudget is how many values the tree of a YAML document of n bytes may
// have. Without aliases it has fewer values than bytes; aliases may repeat a
// part a few times, never multiply it (a "billion laughs" file of 300 bytes
// expands to billions).
func aliasBudget(n int) int { return 4*n + 1000 }

// quote is %q of at most 40 bytes of s: an error quotes a short excerpt,
// never a whole value someone pasted into the file.
func quote(s string) string {
	head, more := excerpt(s)
	return strconv.Quote(head) + more
}

// short is at most 40 bytes of a value shown as written (a number, a date).
func short(s string) string {
	head, more := excerpt(s)
	return head + more
}

// excerpt cuts s to at most 40 bytes, saying how long it was when it cuts.
func excerpt(s string) (head, more string) {
	const max = 40
	if len(s) <= max {
		return s, ""
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], fmt.Sprintf("... (%d bytes)", len(s))
}

// clip shortens a decoder's message, which may quote a key or value whole.
func clip(err error) error {
	const max = 200
	msg := err.Error()
	if len(msg) <= max {
		return err
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Errorf("%s...", msg[:cut])
}

// limitErrors keeps the first maxErrors problems and counts the rest.
func limitErrors(file string, errs []error) []error {
	if len(errs) <= maxErrors {
		return errs
	}
	out := append([]error(nil), errs[:maxErrors]...)
	return append(out, &Error{File: file, Code: problem.MoreErrors, Err: fmt.Errorf("and %d more problems", len(errs)-maxErrors)})
}
