// Package testtool is for integration tests whose real tool (Hugo, Jekyll, wrangler, netlify) may be
// missing on a developer's machine.
//
// Usage:
//
//	if _, err := exec.LookPath("jekyll"); err != nil {
//		testtool.Missing(t, "jekyll not found: apt-get install jekyll")
//	}
//
// Missing skips the test with its message, except where ROBOTSMITH_REQUIRE_TOOLS is set (as .ci/run
// sets it), where a missing tool fails the test: CI must run every integration test.
package testtool

import (
	"fmt"
	"os"
	"testing"
)

// RequireEnv is the environment variable that turns a missing tool into a failure.
const RequireEnv = "ROBOTSMITH_REQUIRE_TOOLS"

// Missing skips t (or fails it, with RequireEnv set) saying what is missing and how to install it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s (%s is set: CI needs every tool)", msg, RequireEnv)
	}
	t.Skip(msg)
}
