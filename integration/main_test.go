// Package integration holds robotsmith's slowest end-to-end tests, those that run the real hosts'
// and generators' tools around the robotsmith binary (the Netlify Build Plugin under netlify-cli,
// the Jekyll plugin under Jekyll, watch mode under hugo server and jekyll serve). They are a package
// of their own so that go test runs them beside the root package's tests, each within its own time
// limit, rather than after them in one: on a busy two-core machine the two together went past go
// test's default ten minutes.
package integration

import (
	"fmt"
	"os"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// TestMain runs the tests from the repository's root, as the root package's run, so that the
// paths they name (plugins/, docs/, testdata/) are the repository's.
func TestMain(m *testing.M) {
	root, err := testtool.ModuleRoot()
	if err == nil {
		err = os.Chdir(root)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "integration:", err)
		os.Exit(2)
	}
	code := m.Run()
	testtool.RemoveBuilt()
	os.Exit(code)
}
